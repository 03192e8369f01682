# The app's image: gunicorn serving Django, static files by whitenoise (docker-compose.yml).
FROM python:3.13-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config ./config
COPY scoring ./scoring
COPY tournament ./tournament
RUN pip install --no-cache-dir .
COPY . .
# collectstatic needs some secret key at build time; the real one comes from the environment.
RUN DJANGO_SECRET_KEY=build-only python manage.py collectstatic --noinput
# The app runs as a user of its own. It writes only the automatic backups, into /backups
# (compose mounts the `backups` volume there; a new volume takes this folder's owner).
RUN useradd --system --no-create-home app && mkdir /backups && chown app /backups
USER app
EXPOSE 8000
