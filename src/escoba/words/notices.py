"""The words of the notices: on the table page, to a seat away from its
table, by e-mail and by Web Push."""

from __future__ import annotations

from typing import Final

from escoba.words.message import DAYS, HOURS, counted, sentence

NOTICES: Final = {
    # -- Notices on the table page -----------------------------------------
    "absent_notice": counted(
        "%(name)s lleva más de %(hours)s hora sin jugar.",
        "%(name)s lleva más de %(hours)s horas sin jugar.",
        by="hours",
        settings=HOURS,
    ),
    "expired_notice": counted(
        "Pasó %(days)s día sin jugadas, así que la partida terminó sin ganador.",
        "Pasaron %(days)s días sin jugadas, así que la partida terminó sin ganador.",
        by="days",
        settings=DAYS,
    ),
    "nameless_player": sentence("Jugador %(n)s"),
    # -- Notices to a seat away from its table (web/notices/notice.py) --------------
    "notice_title": sentence("Escoba · mesa de %(players)s"),
    "notice_turn": sentence("Te toca jugar."),
    "notice_turn_who": sentence("Te toca jugar: %(who)s jugó."),
    "notice_round": sentence("La ronda terminó: te esperan para SIGUIENTE RONDA."),
    "notice_end": sentence("La partida terminó."),
    "notice_absence": sentence(
        "%(who)s no juega desde hace %(since)s: ya puedes TERMINAR POR AUSENCIA."
    ),
    "notice_warning": sentence(
        "Es tu turno desde hace %(since)s: si no juegas, podrán TERMINAR POR AUSENCIA %(left)s."
    ),
    "notice_expiry": sentence("Si nadie juega, la mesa vence %(left)s."),
    "notice_chat": sentence("%(who)s escribió en el chat."),
    # -- E-mail notices (web/notices/email/seats.py, web/notices/email/channel.py) -----------
    "empty_email": sentence("Escribe tu dirección de correo."),
    "email_too_long": counted(
        "La dirección de correo es muy larga (máximo %(limit)s carácter).",
        "La dirección de correo es muy larga (máximo %(limit)s caracteres).",
        by="limit",
    ),
    "bad_email": sentence(
        "Esa dirección de correo no es válida: se escribe como nombre@ejemplo.com, "
        "sin espacios, comillas ni comas."
    ),
    "email_rate": sentence("Ya mandamos varios correos a esa dirección: prueba otra vez mañana."),
    "email_unavailable": sentence("Este servidor no manda correos."),
    "email_confirm_subject": sentence("Escoba del 15: confirma tu correo"),
    "email_confirm_body": sentence(
        "Alguien, seguramente tú, dejó esta dirección en la mesa de %(players)s para "
        "recibir avisos de Escoba del 15. Para recibirlos, abre este enlace y confirma:"
    ),
    "email_confirm_ignore": sentence("Si no fuiste tú, no hagas nada: no te mandaremos nada más."),
    "email_open_table": sentence("Abrir la mesa:"),
    "email_why": sentence(
        "Recibes este correo porque dejaste esta dirección en la mesa de %(players)s. "
        "Para dejar de recibirlos:"
    ),
    "email_why_digest": sentence(
        "Recibes este resumen porque lo pediste en tus mesas de Escoba del 15. "
        "Para dejar de recibirlo:"
    ),
    "digest_subject": counted(
        "Escoba del 15: %(count)s mesa te espera",
        "Escoba del 15: %(count)s mesas te esperan",
        by="count",
    ),
    "digest_intro": sentence("Estas mesas te esperan:"),
    "digest_table": sentence("La mesa de %(players)s"),
    "waiting_turn": sentence("Te toca jugar desde hace %(since)s."),
    "waiting_round": sentence("Te esperan para SIGUIENTE RONDA."),
    "waiting_absence": sentence(
        "%(who)s no juega desde hace %(since)s: puedes TERMINAR POR AUSENCIA."
    ),
    # -- Web Push subscriptions (web/notices/push/endpoints.py) -----------------------
    "push_not_subscription": sentence("Eso no es una suscripción de notificaciones del navegador."),
    "push_endpoint_long": sentence(
        "La dirección de la suscripción es demasiado larga (máximo %(limit)s caracteres)."
    ),
    "push_endpoint_url": sentence(
        "La dirección de la suscripción debe ser una URL https válida, sin usuario, "
        "contraseña ni #."
    ),
    "push_endpoint_private": sentence(
        "La dirección de la suscripción apunta a una red local o privada: no se acepta."
    ),
    "push_endpoint_unknown": sentence(
        "No se encontró el servidor de la dirección de la suscripción."
    ),
    "push_bad_key": sentence(
        "La clave p256dh de la suscripción no es una clave pública P-256 válida."
    ),
    "push_bad_auth": sentence("El secreto auth de la suscripción debe tener 16 bytes."),
}
