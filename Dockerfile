# pricebench web, worker and beat image.
FROM node:20-bookworm-slim AS static
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock
COPY . .
COPY --from=static /app/node_modules ./node_modules
RUN SECRET_KEY=build python manage.py collectstatic --noinput
RUN useradd --system --home /app pricebench && mkdir -p var && chown pricebench var
USER pricebench
EXPOSE 8000
# Workers, timeout and max requests: gunicorn.conf.py (GUNICORN_* variables, see the README).
CMD ["gunicorn", "dashboard.wsgi"]
