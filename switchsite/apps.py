from django.apps import AppConfig
from django.urls import register_converter


class SwitchsiteConfig(AppConfig):
    """The project package as an app too: the API plumbing every app shares has a model."""

    name = "switchsite"
    verbose_name = "API plumbing"

    def ready(self) -> None:
        from switchsite.api.converters import IdConverter

        register_converter(IdConverter, "id")
