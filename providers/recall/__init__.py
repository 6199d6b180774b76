"""Recalling past conversations into a turn (`recall`)."""
