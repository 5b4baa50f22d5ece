"""The pages' face of every error (`escoba.web.app` picks a face once per
error, by `base.errors.speaks_json`): a page in the viewer's language, for a
refusal, a form that could not be read, FastAPI's and Starlette's own errors
(no such page, a wrong method) and a bug."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Final

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, Response
from starlette.exceptions import HTTPException

from escoba.web.base.errors import ServiceError
from escoba.web.base.settings import PageLimits
from escoba.web.frame.deps import lang_of
from escoba.web.html.routes import error_page, refusal
from escoba.words import say

log = logging.getLogger("escoba.web")

#: FastAPI's and Starlette's own errors, by status, as a page says them.
HTTP_ERRORS: Final = {404: "page_not_found", 405: "wrong_method"}


class PageErrors:
    """Each error as a page; `limits`: what the pages quote."""

    def __init__(self, limits: PageLimits) -> None:
        self.limits = limits

    def page(
        self,
        request: Request,
        code: str,
        status: int,
        title: str = "error_title",
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """A page of the app's own errors, in the viewer's language."""
        lang = lang_of(request)
        return error_page(
            say(code, lang), status, lang=lang, limits=self.limits, title=title, headers=headers
        )

    def refused(self, request: Request, exc: ServiceError) -> Response:
        return refusal(request, exc)

    def bad_input(self, request: Request, exc: RequestValidationError) -> Response:
        return self.page(request, "bad_form", 422, title="refused_title")

    def http(self, request: Request, exc: HTTPException) -> Response:
        code = HTTP_ERRORS.get(exc.status_code)
        if code is None:
            code = "server_error" if exc.status_code >= 500 else "bad_request"
        return self.page(request, code, exc.status_code, headers=exc.headers)

    def bug(self, request: Request) -> Response:
        try:
            return self.page(request, "server_error", 500)
        except Exception:  # the page itself failed: the plainest answer
            log.exception("error page failed", extra={"path": request.url.path})
            return PlainTextResponse("Internal Server Error", status_code=500)
