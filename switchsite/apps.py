import logging

from django.apps import AppConfig
from django.urls import register_converter


class SwitchsiteConfig(AppConfig):
    """The project package as an app too: the API plumbing every app shares has a model."""

    name = "switchsite"
    verbose_name = "API plumbing"

    def ready(self) -> None:
        from switchsite.api.converters import IdConverter

        register_converter(IdConverter, "id")
        _redact_the_servers_logs()


def _redact_the_servers_logs() -> None:
    """uvicorn configures its loggers before it loads the application, each with a handler of its
    own, so the settings' ``LOGGING`` cannot reach them: the filter goes on the loggers here."""
    from switchsite.logfilters import RedactSecrets

    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactSecrets) for existing in logger.filters):
            logger.addFilter(RedactSecrets())
