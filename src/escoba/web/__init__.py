"""The invite-table web app: persistence, the table service, the JSON API, the
HTML pages and live updates."""
