import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * `/js/embed.js`: the merchant's page loads it (pinned with `integrity`, EMBED_SCRIPT_INTEGRITY) and
 * calls `Tillpoint.embed({ clientSecret, container })`, which mounts an embedded session's page in an
 * iframe, sizes it to the height the page posts, and sends the top page to `return_url` after payment.
 * Messages are taken only from the frame, from this install's origin. Kept tiny and dependency-free:
 * it runs on the merchant's page.
 */
export const EMBED_SCRIPT = `/* Tillpoint embedded checkout: Tillpoint.embed({ clientSecret, container }) mounts the checkout in an iframe, sized to its content; after payment the page goes to the session's return_url. */
(function () {
  var script = document.currentScript;
  var origin = new URL(script ? script.src : location.href).origin;
  function embed(options) {
    var secret = String((options && options.clientSecret) || '');
    var match = /^(cs_[A-Za-z0-9_]+?)_secret_[A-Za-z0-9]+$/.exec(secret);
    if (!match) throw new Error('Tillpoint.embed: clientSecret is not a client secret');
    var container = typeof options.container === 'string' ? document.querySelector(options.container) : options.container;
    if (!container) throw new Error('Tillpoint.embed: container not found');
    var frame = document.createElement('iframe');
    frame.src = origin + '/c/' + match[1] + '?embedded=' + encodeURIComponent(secret);
    frame.title = options.title || 'Checkout';
    frame.allow = 'payment';
    frame.style.cssText = 'border:0;width:100%;min-height:480px;display:block';
    function onMessage(event) {
      if (event.origin !== origin || event.source !== frame.contentWindow) return;
      var data = event.data || {};
      if (data.type === 'tillpoint:height' && typeof data.height === 'number') frame.style.height = Math.ceil(data.height) + 'px';
      if (data.type === 'tillpoint:complete' && typeof data.url === 'string' && /^https?:\\/\\//.test(data.url)) window.location.assign(data.url);
    }
    window.addEventListener('message', onMessage);
    container.appendChild(frame);
    return { destroy: function () { window.removeEventListener('message', onMessage); frame.remove(); } };
  }
  window.Tillpoint = Object.assign(window.Tillpoint || {}, { embed: embed });
})();
`;

/** The script's SRI value, published in docs/embedded-checkout.md's snippet and by `GET /js/embed.json`. */
export const EMBED_SCRIPT_INTEGRITY = `sha384-${createHash('sha384').update(EMBED_SCRIPT).digest('base64')}`;

export function registerEmbedScript(app: FastifyInstance, publicUrl: string) {
  app.get('/js/embed.js', async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      // Loaded cross-origin with `integrity` and `crossorigin="anonymous"`: CORS lets the browser check the hash.
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(EMBED_SCRIPT),
  );
  app.get('/js/embed.json', async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send({ url: `${publicUrl}/js/embed.js`, integrity: EMBED_SCRIPT_INTEGRITY }),
  );
}
