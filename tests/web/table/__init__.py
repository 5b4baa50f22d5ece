"""A table's commands and reads (escoba.web.table), through the service and through HTTP."""
