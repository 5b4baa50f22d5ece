"""One catalog of the words players read.

Code raises a *code* with its values — the engine's `IllegalAction("not_fifteen",
sum=13)`, a refusal of the table service, a page of the app — and this module
is the one place that turns a code into a sentence in the viewer's language
(lila's `trans.site.aboutX(…)`: no sentence is written where the decision is
made). `CATALOG` maps every code to its Spanish source text, which is the
gettext msgid; the `.po` files under `locale/` translate it (docs/i18n.md).

    say("not_fifteen", "en", sum=13)           # 'Those cards add up to 13, not 15.'
    say("not_absent", "pt_BR", limits=settings)  # hours from the settings
    say_html("result_abandoned", lang, loser=who)  # `who` already Markup
    say_result(result, names, players, lang, limits=settings)

Values:

- A value is `%`-formatted into the sentence as given: a `str` as is, a
  number in the language's way of writing numbers («1,5» in Spanish), a
  list or tuple as its items joined by «, » (the cards of `not_on_table`).
  Values a sentence does not name are ignored; a value it names and nobody
  gave is a `KeyError` (a test renders every code in every language).
- `say` gives plain text: for JSON, logs, or a template that escapes it.
  `say_html` gives `Markup`: the sentence itself is escaped, a value that is
  already `Markup` (a name in its `<bdi>`, with the robot mark) is kept as
  it is, and any other value is escaped. Pass names as `Markup` only to
  `say_html`; `say` would print their tags.
- Limits that are settings (the 48 hours of absence, the 7 days of expiry,
  the longest name and chat line) are never literals here: a `Message`
  names the settings field each such value comes from, and `limits=` (the
  app's `Settings`, or anything with those fields, see `Limits`) fills it
  in. A value given by name wins over the settings' one.
- When a number is in the sentence it picks the plural form (`counted`):
  «1 hora», «48 horas»; for a list, its length does. A fractional count
  takes the plural form.

The game's own words stay Spanish in every language (ESCOBA, LLEVAR EL 15,
SIGUIENTE RONDA, TERMINAR POR AUSENCIA, MANTENER / CAMBIAR…), inside
translated sentences too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

from babel.numbers import format_decimal
from markupsafe import Markup, escape

from escoba.engine.rules import RuleSet
from escoba.engine.seats import seats_of_side
from escoba.engine.state import EndReason, Result
from escoba.i18n import DEFAULT_LANG, LANGUAGES, translations
from escoba.names import AND


class Limits(Protocol):
    """The settings a sentence may quote (`escoba.web.settings.Settings`)."""

    @property
    def absence_hours(self) -> float: ...

    @property
    def expiry_days(self) -> float: ...

    @property
    def name_max_length(self) -> int: ...

    @property
    def chat_max_length(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Message:
    """One sentence of the catalog: its Spanish source (the msgid), and its
    plural when a number or a list in it picks the form."""

    text: str
    plural: str | None = None
    #: the value whose number (or length) picks singular or plural
    by: str | None = None
    #: value name → the `Limits` field it comes from
    settings: Mapping[str, str] = field(default_factory=dict)


def sentence(text: str, *, settings: Mapping[str, str] | None = None) -> Message:
    """A sentence with one form. (A keyword of babel.cfg: extracted.)"""
    return Message(text, settings=settings or {})


def counted(
    singular: str, plural: str, *, by: str, settings: Mapping[str, str] | None = None
) -> Message:
    """A sentence whose form follows the number (or list) `by`. (A keyword
    of babel.cfg: both forms are extracted as one plural entry.)"""
    return Message(singular, plural, by, settings or {})


HOURS: Final = {"hours": "absence_hours"}
DAYS: Final = {"days": "expiry_days"}

#: Every code a person may read, with its Spanish source text.
CATALOG: Final[Mapping[str, Message]] = {
    # -- The rules (escoba.engine: IllegalAction) --------------------------
    "game_over": sentence("La partida ya terminó."),
    "round_in_play": sentence("La ronda todavía se está jugando."),
    "round_over": sentence("La ronda terminó: falta tocar SIGUIENTE RONDA."),
    "no_such_seat": sentence("Ese asiento no está en la mesa."),
    "not_your_turn": sentence("No es tu turno."),
    "unknown_action": sentence("Esa jugada no existe."),
    "repeated_card": sentence("Elegiste la misma carta dos veces."),
    "not_on_table": counted(
        "Esa carta no está en la mesa: %(cards)s.",
        "Esas cartas no están en la mesa: %(cards)s.",
        by="cards",
    ),
    "not_in_hand": sentence("La carta %(card)s no está en tu mano."),
    "not_fifteen": sentence("Esas cartas suman %(sum)s, no 15."),
    "must_capture": sentence("En esta mesa levantar es obligatorio: puedes llevarte un 15."),
    "no_fifteen": sentence("No hay un 15 para llevar."),
    "not_your_fifteen": sentence("Solo el jugador siguiente puede llevar ese 15."),
    "empty_claim": sentence("Elige las cartas de la mesa que suman 15."),
    "claim_includes_card": sentence("La carta %(card)s ya va en el 15: elige las otras."),
    # the API's claim names every card it takes, the left one first
    "claim_missing_card": sentence(
        "LLEVAR EL 15 se lleva la carta que quedó en la mesa: incluye %(card)s en las cartas."
    ),
    # -- Moves that cannot be read (escoba.engine: InputError) -------------
    "not_a_card": sentence("«%(text)s» no es una carta (se escribe valor y palo: 7D, 10S)."),
    "action_not_object": sentence("La jugada debe ser un objeto JSON."),
    "action_without_card": sentence("Falta la carta que juegas."),
    "capture_not_a_list": sentence('Las cartas que llevas deben ser una lista como ["8D", "4S"].'),
    "claim_without_group": sentence(
        'Para LLEVAR EL 15 indica las cartas de la mesa: ["4S", "6C"].'
    ),
    "unknown_action_type": sentence("Tipo de jugada desconocido: usa «play» o «claim»."),
    # -- The forms of the table page ---------------------------------------
    "pick_card": sentence("Primero toca una carta de tu mano."),
    "pick_capture": sentence("Toca las cartas de la mesa que quieres llevarte."),
    "pick_claim": sentence("Toca las cartas de la mesa que van con la carta que quedó."),
    # -- The table service's refusals ---------------------------------------
    "stale": sentence("La mesa cambió desde que la viste: mira cómo quedó y vuelve a jugar."),
    "busy": sentence("La mesa está ocupada: prueba otra vez."),
    "no_table": sentence("Esa mesa no existe."),
    "bad_target": sentence(
        "La partida se juega a 21 o a 31 puntos (a 15 o a 30 con las reglas de la casa)."
    ),
    "two_targets": sentence(
        "Se indicaron dos metas distintas, %(points)s y %(named)s puntos: indica una sola."
    ),
    "already_started": sentence("La partida ya empezó: puedes mirarla."),
    "lobby_closed": sentence("La partida ya empezó."),
    "table_full": sentence("La mesa está completa: puedes mirar la partida."),
    "no_free_seat": sentence("No quedan lugares libres."),
    "name_taken": sentence(
        "Ya hay alguien en la mesa con ese nombre o uno que se le parece: elige otro."
    ),
    "unknown_robot": sentence("Los robots de la mesa son: %(robots)s."),
    "not_a_robot": sentence("Ahí no hay un robot."),
    "bad_partner": sentence("Elige a otro jugador de la mesa como pareja."),
    "not_enough": sentence("Hacen falta de 2 a 4 jugadores para empezar."),
    "not_creator": sentence("Solo quien creó la mesa puede hacer eso."),
    "not_seated": sentence("No estás sentado en esta mesa."),
    "not_started": sentence("La partida todavía no empezó."),
    "not_playing": sentence("No juegas en esta partida."),
    "no_game": sentence("No hay una partida en juego."),
    "not_absent": counted(
        "Todavía no: el jugador de turno tiene %(hours)s hora para jugar.",
        "Todavía no: el jugador de turno tiene %(hours)s horas para jugar.",
        by="hours",
        settings=HOURS,
    ),
    "self_absence": sentence("Eres tú quien tiene el turno: juega una carta."),
    "not_finished": sentence("La partida todavía no terminó."),
    "record_not_ready": sentence("El registro se descarga cuando la partida termina."),
    # the replay of a round (escoba.web.story_routes)
    "no_round_title": sentence("No hay repetición"),
    "no_round": sentence(
        "Solo se pueden repetir las rondas terminadas de la partida en juego, "
        "y esa no lo es. Vuelve a la mesa: el resumen de cada ronda lleva a su repetición."
    ),
    "no_step": sentence("Esa jugada no está en la repetición de la ronda."),
    "no_rematch": sentence(
        "No hay revancha después de un abandono, una ausencia o una mesa vencida."
    ),
    "already_accepted": sentence("Ya aceptaste la revancha."),
    "choose_pairs": sentence("Elige MANTENER o CAMBIAR las parejas."),
    "empty_name": sentence("Escribe tu nombre."),
    "name_too_long": counted(
        "El nombre es muy largo (máximo %(limit)s letra).",
        "El nombre es muy largo (máximo %(limit)s letras).",
        by="limit",
        settings={"limit": "name_max_length"},
    ),
    "bad_name": sentence("El nombre tiene caracteres no válidos."),
    "invisible_name": sentence("El nombre necesita al menos una letra o un número que se vea."),
    "robot_name": sentence("Ese nombre es de robot: elige otro."),
    "empty_chat": sentence("Escribe algo antes de enviar."),
    "chat_too_long": counted(
        "El mensaje es muy largo (máximo %(limit)s letra).",
        "El mensaje es muy largo (máximo %(limit)s letras).",
        by="limit",
        settings={"limit": "chat_max_length"},
    ),
    "spectator": sentence("Solo quienes están sentados pueden escribir."),
    "unknown_notice": sentence("No hay avisos de la clase «%(text)s»."),
    "chat_rate": sentence("Vas muy rápido: espera unos segundos."),
    "bad_link_title": sentence("Ese enlace no sirve"),
    "bad_link": sentence(
        "La mesa existe, pero ese enlace no abre ningún lugar en ella. Quien juega en ese "
        "lugar puede pasarlo a este dispositivo con un código nuevo de «Seguir en otro "
        "dispositivo»; mientras tanto, puedes mirar la mesa."
    ),
    # -- «Seguir en otro dispositivo», a seat's devices ----------------------
    "transfer_malformed": sentence(
        "Ese código no es válido: tiene 10 letras y números, como K7P2M-X9QRT."
    ),
    "transfer_unknown": sentence("Ese código no existe: revisa que esté bien escrito."),
    "transfer_used": sentence("Ese código ya se usó: pide uno nuevo en el otro dispositivo."),
    "transfer_expired": sentence("Ese código venció: pide uno nuevo en el otro dispositivo."),
    "nothing_to_transfer": sentence("Este dispositivo no tiene mesas para pasar."),
    "no_such_device": sentence("Ese dispositivo ya no tiene este lugar."),
    # -- The app and its guard at the door ---------------------------------
    "database_unavailable": sentence("El servidor no llegó a la base de datos: prueba otra vez."),
    "too_many_streams": sentence(
        "Hay demasiadas mesas abiertas a la vez desde tu conexión: cierra alguna pestaña "
        "de Escoba y esta volverá a conectarse sola."
    ),
    "bad_form": sentence("Faltan datos o no son válidos."),
    "forbidden_origin": sentence("Esa petición vino de otro sitio y no se aceptó."),
    "rate_join": sentence(
        "Demasiadas mesas o uniones seguidas desde tu conexión: espera un minuto."
    ),
    "rate_ip": sentence("Demasiadas jugadas seguidas desde tu conexión: espera un momento."),
    "rate_transfer": sentence(
        "Demasiados códigos probados desde tu conexión: espera un minuto y vuelve a probar."
    ),
    "rate_seat": sentence("Vas muy rápido con este lugar: espera un momento y vuelve a jugar."),
    "bad_request": sentence("La petición no es válida."),
    "timeout": sentence("La petición tardó demasiado en llegar: prueba otra vez."),
    "too_large": sentence(
        "Esa petición es demasiado grande (el límite es %(kb)s KB) y no se leyó."
    ),
    "page_not_found": sentence("Esa página no existe."),
    "wrong_method": sentence("Esa dirección no se abre así: vuelve a la mesa desde su enlace."),
    "server_error": sentence("Algo falló de nuestro lado: prueba otra vez en un rato."),
    # the error page around those sentences
    "error_title": sentence("Algo salió mal"),
    "table_not_found_title": sentence("No encontramos esa mesa"),
    "refused_title": sentence("No se pudo"),
    "back": sentence("Volver"),
    # -- The JSON API's own refusals ---------------------------------------
    "bad_json": sentence("El cuerpo de la petición no es JSON válido."),
    "bad_encoding": sentence("El cuerpo de la petición no es JSON válido (ni UTF-8)."),
    "missing_body": sentence("Falta el cuerpo de la petición: un objeto JSON."),
    "body_not_object": sentence("El cuerpo de la petición debe ser un objeto JSON."),
    "unsupported_media_type": sentence(
        "Envía el cuerpo como JSON, con Content-Type: application/json."
    ),
    "invalid": sentence("Dato no válido: %(field)s (%(detail)s)"),
    "not_found": sentence("La API no tiene esa dirección."),
    "method_not_allowed": sentence("Esa dirección de la API no acepta ese método."),
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
    # -- Time on the table (web/timekeeping.py): %(left)s is «dentro de 8 h»,
    # %(since)s «hace 5 h», %(moment)s a date and time -----------------------
    "turn_of_since": sentence("Turno de %(name)s · %(since)s"),
    "absence_countdown": sentence("TERMINAR POR AUSENCIA disponible %(left)s"),
    "absence_warning": sentence(
        "Juega antes de %(moment)s (%(left)s): después podrán TERMINAR POR AUSENCIA."
    ),
    "absence_warning_urgent": sentence(
        "¡Queda poco! Si no juegas antes de %(moment)s (%(left)s), podrán TERMINAR POR "
        "AUSENCIA y tu lado perderá la partida."
    ),
    "absence_due_self": sentence(
        "Ya pueden TERMINAR POR AUSENCIA: si juegas ahora, la partida sigue."
    ),
    "expiry_warning": sentence("Si nadie juega, la mesa vence %(left)s"),
    "expiry_due": counted(
        "Pasó %(days)s día sin jugadas: la mesa vence en cualquier momento.",
        "Pasaron %(days)s días sin jugadas: la mesa vence en cualquier momento.",
        by="days",
        settings=DAYS,
    ),
    # -- A table's rules (say_rules) and the round's leftover check ---------
    "rules_site": sentence("Reglas del sitio, a %(points)s puntos."),
    "rules_house": sentence("Reglas de la casa, a %(points)s puntos: %(rules)s."),
    "rules_house_target": sentence("Reglas de la casa: a %(points)s puntos."),
    "rule_setenta": sentence("la setenta"),
    "rule_ties_each": sentence("empates: punto para cada uno"),
    "rule_compulsory_capture": sentence("captura obligatoria"),
    "rule_thirty_single": sentence("30 en la mesa cuenta una escoba"),
    # the cards left at a round's end sum 10 plus a multiple of 15: «25 = 10 + 15»
    "leftover_check": sentence("Restos: %(check)s"),
    # -- Inviting: the invite page, the share button, who is watching ---------
    "invite_title": sentence("%(name)s te invita a jugar Escoba del 15"),
    # the target and the rules in one sentence (say_rules(…, "invite_rules"))
    "invite_rules_site": sentence(
        "Partida a %(points)s puntos con las reglas del sitio: gana el primero que llegue."
    ),
    "invite_rules_house": sentence(
        "Partida a %(points)s puntos con reglas de la casa (%(rules)s): gana el primero que llegue."
    ),
    "invite_rules_house_target": sentence(
        "Partida a %(points)s puntos con reglas de la casa: gana el primero que llegue."
    ),
    "invite_seated": counted(
        "Ya se sentó %(names)s.",
        "Ya se sentaron %(names)s.",
        by="people",
    ),
    "invite_free": counted(
        "Queda %(free)s lugar libre.",
        "Quedan %(free)s lugares libres.",
        by="free",
    ),
    "invite_robots": counted(
        "%(robots)s es un robot: juega solo y enseguida.",
        "%(robots)s son robots: juegan solos y enseguida.",
        by="count",
    ),
    # how well each robot plays (escoba.bots.RobotInfo.level): a word beside its
    # name («Tito · aprende») and a short description
    "robot_level_learning": sentence("aprende"),
    "robot_level_good": sentence("buena"),
    "robot_level_strong": sentence("fuerte"),
    "robot_about_learning": sentence("Aprende a jugar: a veces no ve un 15, o no elige el mejor."),
    "robot_about_good": sentence("Juega bien: mira qué le deja en la mesa al siguiente."),
    "robot_about_strong": sentence("Juega fuerte: lleva la cuenta de las cartas que faltan salir."),
    "invite_next": sentence("Qué pasa ahora"),
    "invite_step_join": sentence("Escribe tu nombre y toca SENTARME."),
    "invite_step_start": sentence("%(name)s toca EMPEZAR cuando estén todos."),
    "invite_step_turn": sentence(
        "Cuando sea tu turno te lo diremos: la página lo muestra, y con AVISARME también "
        "te llega un aviso."
    ),
    "share_text": sentence("%(name)s te invita a jugar Escoba del 15, a %(points)s puntos."),
    "copy_refused": sentence(
        "El navegador no dejó copiar: el enlace quedó seleccionado, cópialo a mano."
    ),
    "watching_lobby": sentence("Estás mirando esta mesa: puedes leer el chat, pero no escribir."),
    "watching_full": sentence(
        "La mesa está completa, así que estás mirando: puedes leer el chat, pero no escribir. "
        "La partida empieza cuando %(name)s toque EMPEZAR."
    ),
    "watching_game": sentence(
        "La partida ya empezó, así que estás mirando: ves la mesa y las jugadas (no las "
        "cartas de nadie) y puedes leer el chat, pero no escribir."
    ),
    "watching_over": sentence(
        "Esta partida terminó: estás mirando cómo quedó la mesa, y puedes leer el chat."
    ),
    # -- How a game ended (say_result) --------------------------------------
    "result_won": counted(
        "¡%(winners)s gana la partida!", "¡%(winners)s ganan la partida!", by="people"
    ),
    "result_abandoned": sentence("%(loser)s abandonó la partida."),
    "result_absent": counted(
        "%(loser)s no jugó en más de %(hours)s hora.",
        "%(loser)s no jugó en más de %(hours)s horas.",
        by="hours",
        settings=HOURS,
    ),
    "result_winners": counted("%(winners)s gana.", "%(winners)s ganan.", by="people"),
    "result_shared": sentence("%(winners)s comparten la victoria."),
    "result_expired": counted(
        "La mesa venció tras %(days)s día sin jugadas: sin ganador.",
        "La mesa venció tras %(days)s días sin jugadas: sin ganador.",
        by="days",
        settings=DAYS,
    ),
    "result_no_winner": sentence("La partida terminó sin ganador."),
    # -- Notices to a seat away from its table (web/notices.py) --------------
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
    # -- The installed app (web/install.py) ---------------------------------
    "app_description": sentence(
        "Escoba del 15 con tus amigos, a tu ritmo: cada uno juega cuando puede"
        " y la app avisa cuando te toca."
    ),
    # -- E-mail notices (web/email_seats.py, web/email_channel.py) -----------
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
    # -- Web Push subscriptions (web/push/endpoints.py) -----------------------
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


def say(
    code: str, lang: str = DEFAULT_LANG, /, *, limits: Limits | None = None, **values: object
) -> str:
    """The sentence for `code` in `lang`, as plain text (see the module)."""
    return str(_say(code, lang, limits, values, html=False))


def say_html(
    code: str, lang: str = DEFAULT_LANG, /, *, limits: Limits | None = None, **values: object
) -> Markup:
    """The sentence for `code` in `lang` as HTML: the sentence and every
    value escaped, except values that are already `Markup` (names)."""
    return Markup(_say(code, lang, limits, values, html=True))


def say_rules(rules: RuleSet, lang: str = DEFAULT_LANG, /, words: str = "rules") -> str:
    """Which rules a table plays, in one short sentence: «Reglas del sitio, a
    21 puntos.» or «Reglas de la casa, a 15 puntos: la setenta, captura
    obligatoria.» (the house rules in `RuleSet.variants`' order). `words`:
    the codes' prefix of another such sentence (`<words>_site`,
    `<words>_house`, `<words>_house_target`), as the invite page's
    («invite_rules»: the target, the rules and who wins, in one)."""
    if rules.is_site:
        return say(f"{words}_site", lang, points=rules.target)
    named = [say(f"rule_{variant}", lang) for variant in rules.variants()]
    if not named:
        return say(f"{words}_house_target", lang, points=rules.target)
    return say(f"{words}_house", lang, points=rules.target, rules=named)


def leftover_sum(total: int, fifteens: int) -> str:
    """The leftover check as numbers: «10», «25 = 10 + 15», «40 = 10 + 2 × 15»."""
    if fifteens == 0:
        return str(total)
    return f"{total} = 10 + " + ("15" if fifteens == 1 else f"{fifteens} × 15")


def say_result(
    result: Result,
    names: Sequence[str],
    players: int,
    lang: str = DEFAULT_LANG,
    /,
    *,
    limits: Limits | None = None,
    **values: object,
) -> str:
    """How the game ended, as plain text: «Ana abandonó la partida. Tito
    gana.» `names` are the players' by engine seat."""
    return str(_result(result, names, players, lang, limits, values, html=False))


def say_result_html(
    result: Result,
    names: Sequence[str | Markup],
    players: int,
    lang: str = DEFAULT_LANG,
    /,
    *,
    limits: Limits | None = None,
    **values: object,
) -> Markup:
    """`say_result` as HTML; names may be `Markup` (kept), others are escaped."""
    return Markup(_result(result, names, players, lang, limits, values, html=True))


# --------------------------------------------------------------------------


def _say(
    code: str, lang: str, limits: Limits | None, values: Mapping[str, object], html: bool
) -> str:
    message = CATALOG.get(code)
    if message is None:
        raise KeyError(f"no words for the code {code!r}")
    given = dict(values)
    if limits is not None:
        for name, setting in message.settings.items():
            given.setdefault(name, getattr(limits, setting))
    tr = translations(lang)
    try:
        if message.plural is None or message.by is None:
            text = tr.gettext(message.text)
        else:
            text = tr.ngettext(message.text, message.plural, _count(given[message.by]))
        shown = {name: _shown(value, lang, html) for name, value in given.items()}
        return escape(text) % shown if html else text % shown
    except KeyError as err:
        raise KeyError(f"the code {code!r} needs the value {err}") from None


def _count(value: object) -> int:
    """The number that picks a plural form: a list's length; a fraction
    takes the plural."""
    if isinstance(value, list | tuple):
        return len(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else 2
    if isinstance(value, int):
        return value
    raise TypeError(f"a plural needs a number, not {value!r}")


def _shown(value: object, lang: str, html: bool) -> str:
    """A value as the sentence shows it (still to be escaped, unless Markup)."""
    if isinstance(value, str):  # Markup too
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int | float):
        return format_decimal(value, locale=lang if lang in LANGUAGES else DEFAULT_LANG)
    if isinstance(value, list | tuple):
        items = [_shown(v, lang, html) for v in value]
        return Markup(", ").join(items) if html else ", ".join(items)
    return str(value)


def _and(items: Sequence[str], lang: str, html: bool) -> str:
    """«a, b y c» («e», «and»), of names that may be `Markup`."""
    if len(items) <= 1:
        return items[0] if items else ""
    word = AND.get(lang, AND[DEFAULT_LANG])
    if html:
        return Markup("{} {} {}").format(Markup(", ").join(items[:-1]), word, items[-1])
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def _result(
    result: Result,
    names: Sequence[str | Markup],
    players: int,
    lang: str,
    limits: Limits | None,
    values: Mapping[str, object],
    html: bool,
) -> str:
    """Two sentences at most: why the game ended (who left, who was absent),
    then who won. RULES.md: leaving or absence loses; without pairs, tied
    winners share the win; an expired table has no winner."""

    def say_(code: str, **more: object) -> str:
        return _say(code, lang, limits, {**values, **more}, html)

    def name(seat: int) -> str:
        if 0 <= seat < len(names):
            return names[seat]
        return say_("nameless_player", n=seat + 1)

    if result.reason is EndReason.EXPIRED:
        return say_("result_expired")
    seats = [s for side in result.winners for s in seats_of_side(side, players)]
    winners = _and([name(s) for s in seats], lang, html)
    if result.reason is EndReason.TARGET and seats:
        return say_("result_won", winners=winners, people=len(seats))
    parts = []
    if result.loser_seat is not None:
        loser = name(result.loser_seat)
        if result.reason is EndReason.ABANDON:
            parts.append(say_("result_abandoned", loser=loser))
        elif result.reason is EndReason.ABSENCE:
            parts.append(say_("result_absent", loser=loser))
    if not seats:
        parts.append(say_("result_no_winner"))
    elif len(result.winners) > 1:
        parts.append(say_("result_shared", winners=winners))
    else:
        parts.append(say_("result_winners", winners=winners, people=len(seats)))
    return (Markup(" ") if html else " ").join(parts)
