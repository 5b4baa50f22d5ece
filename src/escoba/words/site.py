"""The words of the site around the tables: the guard at the door, the
JSON API's own refusals, the installed app."""

from __future__ import annotations

from typing import Final

from escoba.words.message import sentence

SITE: Final = {
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
    "headers_too_large": sentence(
        "Las cabeceras de la petición son demasiado grandes (el límite es %(kb)s KB): "
        "borra las cookies de este sitio y prueba otra vez."
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
    # -- The installed app (web/html/install.py) ---------------------------------
    "app_description": sentence(
        "Escoba del 15 con tus amigos, a tu ritmo: cada uno juega cuando puede"
        " y la app avisa cuando te toca."
    ),
}
