"""Moments on the pages: relative to now, in the viewer's language, with the
exact instant for the page's script."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from escoba.web.rendering.templating import moment_tag

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_a_past_moment_reads_as_time_ago_in_each_language() -> None:
    five = NOW - timedelta(hours=5)
    assert moment_tag(five, NOW, "es") == (
        '<time datetime="2026-12-01T07:00:00Z" data-ago>hace 5 h</time>'
    )
    assert "5 hr. ago" in moment_tag(five, NOW, "en")
    assert "há 5 h" in moment_tag(five, NOW, "pt_BR")


def test_a_coming_moment_counts_down_and_a_clock_skew_never_reads_as_future() -> None:
    soon = NOW + timedelta(hours=30)
    assert "data-countdown>dentro de 30 h<" in moment_tag(soon, NOW, "es", "countdown")
    assert "hace" in moment_tag(NOW + timedelta(seconds=3), NOW, "es")
