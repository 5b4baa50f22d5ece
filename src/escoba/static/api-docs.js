/* Starts Swagger UI (/docs) or Redoc (/redoc) on the page that loaded it.
 *
 * The app's Content-Security-Policy allows no inline script, so the few lines
 * FastAPI would inline into those pages live in this same-origin file; the
 * page names the OpenAPI document in data-openapi-url.
 */
(function () {
  "use strict";
  var swagger = document.getElementById("swagger-ui");
  if (swagger && window.SwaggerUIBundle) {
    window.SwaggerUIBundle({
      url: swagger.dataset.openapiUrl,
      dom_id: "#swagger-ui",
      deepLinking: true,
      validatorUrl: null, // the public validator is another origin: never called
      presets: [window.SwaggerUIBundle.presets.apis],
      layout: "BaseLayout",
    });
  }
  var redoc = document.getElementById("redoc");
  if (redoc && window.Redoc) {
    window.Redoc.init(
      redoc.dataset.openapiUrl,
      {
        nonce: redoc.dataset.styleNonce, // on the <style> elements it injects (the page's CSP)
        disableSearch: true, // its search worker comes from a blob: URL, which the CSP refuses
      },
      redoc,
    );
  }
})();
