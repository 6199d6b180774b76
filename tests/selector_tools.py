"""A dozen small tools for the selector's tests, found by reference ("selector_tools:NAME")
as a user's own Python tools would be."""

from __future__ import annotations


def get_weather(city: str) -> str:
    """Current weather and temperature forecast for a city."""
    return f"sunny in {city}"


def book_flight(destination: str) -> str:
    """Book a flight ticket to a destination airport."""
    return f"booked a flight to {destination}"


def cancel_flight(booking: str) -> str:
    """Cancel a booked flight ticket and refund it."""
    return f"cancelled flight {booking}"


def book_hotel(city: str) -> str:
    """Reserve a hotel room in a city."""
    return f"booked a hotel in {city}"


def cancel_hotel(booking: str) -> str:
    """Cancel a hotel room reservation."""
    return f"cancelled hotel {booking}"


def convert_currency(amount: float, to: str) -> str:
    """Convert an amount of money into another currency at today's exchange rate."""
    return f"{amount} in {to}"


def translate_text(text: str, language: str) -> str:
    """Translate text into another language."""
    return text


def send_email(to: str, body: str) -> str:
    """Send an email message to a recipient."""
    return "sent"


def search_recipes(ingredient: str) -> str:
    """Find cooking recipes that use an ingredient."""
    return "soup"


def stock_price(symbol: str) -> str:
    """The latest stock market price of a company's ticker symbol."""
    return "42"


def set_reminder(when: str, what: str) -> str:
    """Set a reminder alarm for a time."""
    return "set"


def play_music(song: str) -> str:
    """Play a song or music playlist."""
    return "playing"


NAMES = [
    "get_weather",
    "book_flight",
    "cancel_flight",
    "book_hotel",
    "cancel_hotel",
    "convert_currency",
    "translate_text",
    "send_email",
    "search_recipes",
    "stock_price",
    "set_reminder",
    "play_music",
]
