from django.apps import AppConfig


class SwitchsiteConfig(AppConfig):
    """The project package as an app too: the API plumbing every app shares has a model."""

    name = "switchsite"
    verbose_name = "API plumbing"
