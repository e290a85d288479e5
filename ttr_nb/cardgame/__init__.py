"""Ticket to Ride: The Card Game — a second rules engine on the same protocol as the board engine."""
