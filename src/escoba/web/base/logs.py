"""Structured logs: one JSON object a line on stderr, with the fields a log
search needs (`table_id`, `invite`, `version`, `command`, `path`…) taken from
a record's `extra`. `ESCOBA_LOG_FORMAT=text` gives plain lines instead."""

from __future__ import annotations

import logging
import logging.config
import os
from datetime import UTC, datetime
from typing import Any

import orjson

# the attributes every LogRecord has; anything else came in through `extra`
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "pid": os.getpid(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value if isinstance(value, int | float | bool | None) else str(value)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(out, default=str).decode()


def log_config(fmt: str = "json", level: str = "INFO") -> dict[str, Any]:
    """A dictConfig for the app's loggers and uvicorn's (pass it to
    `uvicorn.run(log_config=…)`)."""
    formatter: dict[str, Any] = (
        {"()": JsonFormatter}
        if fmt == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "main",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "escoba": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        },
    }


def configure(fmt: str = "json", level: str = "INFO") -> None:
    logging.config.dictConfig(log_config(fmt, level))
