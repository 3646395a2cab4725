from typing import Any

from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, pre_save
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        pre_save.connect(
            revoke_tokens_on_password_change,
            sender=get_user_model(),
            dispatch_uid="games.revoke_tokens_on_password_change",
        )
        from switchsite.models import ApiToken

        post_delete.connect(
            end_streams_of_revoked_token,
            sender=ApiToken,
            dispatch_uid="games.end_streams_of_revoked_token",
        )


def revoke_tokens_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A changed password voids the API tokens issued with the old one (wherever it was changed:
    the admin, a management command). ``set_password`` leaves ``_password`` set until the save."""
    from games import services

    if instance.pk is not None and getattr(instance, "_password", None) is not None:
        services.tokens_revoke(user=instance)


def end_streams_of_revoked_token(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A deleted token — revoked, rotated, its password changed, its user or tournament gone,
    whichever way — ends the streams it opened, in every process, once the deletion commits."""
    from switchsite.serving import notifier

    notifier.wake_on_commit(notifier.revoked_topic(instance.pk))
