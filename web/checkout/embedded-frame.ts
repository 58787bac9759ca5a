/**
 * The page inside an embedded checkout's frame (`/js/embed.js` on the merchant's page): it posts
 * its height so the frame fits it, and after payment asks the top page to go to `return_url`
 * instead of navigating the frame. Outside a frame it does nothing.
 */
const framed = (): boolean => typeof window !== 'undefined' && window.parent !== window;

/** Posts the document's height to the embedding page whenever it changes. */
export function reportFrameHeight(): void {
  if (!framed() || typeof ResizeObserver === 'undefined') return;
  const post = () => window.parent.postMessage({ type: 'tillpoint:height', height: document.documentElement.scrollHeight }, '*');
  new ResizeObserver(post).observe(document.documentElement);
  post();
}

/** Leaves the page for `url`: the top page when embedded, this page otherwise. */
export function leaveCheckout(url: string): void {
  if (framed()) window.parent.postMessage({ type: 'tillpoint:complete', url }, '*');
  else window.location.assign(url);
}
