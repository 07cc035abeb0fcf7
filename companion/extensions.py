"""Extension instances only; they are bound to the app in `create_app`."""

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy

from .web.csrf import RememberedCSRF

db = SQLAlchemy()
migrate = Migrate()
csrf = RememberedCSRF()  # Flask-WTF's, each token's signature checked once per process
