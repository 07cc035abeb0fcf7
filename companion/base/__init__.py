"""Helpers every layer may use, knowing no request, no table and no game's rules."""
