import { describe, expect, it } from 'vitest';
import { addSubresourceIntegrity, integrityImportMap, type AssetIntegrity } from './subresource-integrity';

const assets: AssetIntegrity = {
  integrityOf: (path) => ({ '/assets/app-1.js': 'sha384-APP', '/assets/lazy-2.js': 'sha384-LAZY', '/assets/app-3.css': 'sha384-CSS' })[path],
  modules: ['/assets/lazy-2.js', '/assets/app-1.js'],
};

describe('addSubresourceIntegrity', () => {
  it('adds integrity and crossorigin to first-party scripts, module preloads and stylesheets only', () => {
    const head = [
      '<script type="module" src="/assets/app-1.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/lazy-2.js">',
      '<link rel="stylesheet" href="/assets/app-3.css" />',
      '<link rel="icon" href="/assets/app-3.css">',
      '<script src="https://pay.google.com/gp/p/js/pay.js"></script>',
      '<script type="application/json" id="cfg">{}</script>',
    ].join('');
    const out = addSubresourceIntegrity(head, assets);
    expect(out).toContain('<script type="module" src="/assets/app-1.js" integrity="sha384-APP" crossorigin></script>');
    expect(out).toContain('<link rel="modulepreload" crossorigin href="/assets/lazy-2.js" integrity="sha384-LAZY">');
    expect(out).toContain('<link rel="stylesheet" href="/assets/app-3.css" integrity="sha384-CSS" crossorigin />');
    expect(out).toContain('<link rel="icon" href="/assets/app-3.css">');
    expect(out).toContain('<script src="https://pay.google.com/gp/p/js/pay.js"></script>');
    expect(out).toContain('<script type="application/json" id="cfg">{}</script>');
  });

  it('keeps an integrity a tag already has, and leaves files the build does not know alone', () => {
    const head = '<script src="/assets/app-1.js" integrity="sha384-OTHER"></script><script src="/assets/unknown.js"></script>';
    expect(addSubresourceIntegrity(head, assets)).toBe(head);
  });

  it('puts the integrity import map before the first script, with a CSP hash of exactly its text', async () => {
    const map = await integrityImportMap(assets);
    const out = addSubresourceIntegrity('<meta charset="utf-8"><script type="module" src="/assets/app-1.js"></script>', assets, map);
    expect(out.indexOf('<script type="importmap">')).toBeLessThan(out.indexOf('src="/assets/app-1.js"'));
    const text = /<script type="importmap">([^<]*)<\/script>/.exec(out)![1]!;
    expect(JSON.parse(text)).toEqual({ imports: {}, integrity: { '/assets/app-1.js': 'sha384-APP', '/assets/lazy-2.js': 'sha384-LAZY' } });
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
    expect(map.cspSource).toBe(`'sha256-${Buffer.from(digest).toString('base64')}'`);
  });
});
