"""The tests of the devices' room: a table service of their own, without the app,
for each concern built alone (tests/web/alone.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from escoba.web.base.clock import ManualClock
from escoba.web.table.service import TableService

from ..alone import service_alone


@pytest.fixture
def bare_service(db_url: str, clock: ManualClock) -> Iterator[TableService]:
    with service_alone(db_url, clock) as service:
        yield service
