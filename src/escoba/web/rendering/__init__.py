"""What a page shows: Jinja2's templating (the page's words, URLs, filters)
and the screen models the templates read, made from a table's reads — the
board (`board`), the game's story and its replays (`story`), the rounds'
analyses (`analysis`), the coach's board (`coach`), the table's clocks
(`times`), the rules page and the first lesson.

May import: notices, devices, table, base."""
