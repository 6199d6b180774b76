"""The date-and-time tools: the current time in any IANA time zone, and conversions."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from typing import Any

from ctxchat import CtxchatError


class UnknownTimeZone(CtxchatError):
    pass


def _zone(name: str | None) -> tzinfo:
    """The IANA zone `name`; the machine's own zone when None or "local"."""
    if name is None or name.strip().lower() in ("", "local"):
        local = datetime.now().astimezone().tzinfo
        assert local is not None  # astimezone() always sets one
        return local
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise UnknownTimeZone(
            f"unknown time zone {name!r}: use an IANA name such as 'Europe/Paris' or 'UTC'"
        ) from None


def _describe(moment: datetime, zone_name: str | None) -> dict[str, Any]:
    offset = moment.utcoffset() or timedelta()
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return {
        "timezone": zone_name or str(moment.tzname()),
        "datetime": moment.isoformat(timespec="seconds"),
        "weekday": moment.strftime("%A"),
        "utc_offset": f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}",
        "is_dst": bool(moment.dst()),
    }


def current_time(timezone: str = "local") -> dict[str, Any]:
    """The current date and time, in a time zone.

    Args:
        timezone: an IANA time zone name such as 'Europe/Paris', 'America/New_York' or
            'UTC'; 'local' for the user's own
    """
    zone = _zone(timezone)
    named = None if timezone.strip().lower() in ("", "local") else timezone.strip()
    return _describe(datetime.now(zone), named)


def convert_time(time: str, from_timezone: str, to_timezone: str) -> dict[str, Any]:
    """Convert a date and time from one time zone to another.

    Args:
        time: the time to convert, 'HH:MM' (today) or an ISO date and time
            ('2025-03-30T14:30')
        from_timezone: the IANA time zone the time is in ('local' for the user's own)
        to_timezone: the IANA time zone to convert it to ('local' for the user's own)
    """
    source, target = _zone(from_timezone), _zone(to_timezone)
    text = time.strip()
    try:
        if len(text) <= 5 and ":" in text:
            clock = datetime.strptime(text, "%H:%M").time()
            moment = datetime.combine(datetime.now(source).date(), clock, tzinfo=source)
        else:
            moment = datetime.fromisoformat(text).replace(tzinfo=source)
    except ValueError:
        raise ValueError(f"cannot read {time!r}: give 'HH:MM' or an ISO date and time") from None
    converted = moment.astimezone(target)

    def name(zone: str) -> str | None:
        return None if zone.strip().lower() in ("", "local") else zone.strip()

    return {
        "from": _describe(moment, name(from_timezone)),
        "to": _describe(converted, name(to_timezone)),
    }
