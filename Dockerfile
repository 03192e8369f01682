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
EXPOSE 8000
