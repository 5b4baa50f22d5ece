"""What the HTML is made from: Jinja2's templating (the page's words, URLs,
filters) and the board's model for the templates.

May import: notices, devices, table, base."""
