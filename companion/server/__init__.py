"""`make run`: gunicorn and nginx for the table's phones, this machine's addresses, the banner."""
