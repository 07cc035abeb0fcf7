"""Extension instances only; they are bound to the app in `create_app` (CSRF protection is
companion.web.csrf's)."""

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()
migrate = Migrate()
