import * as assert from 'assert';
import { iconDataUri, MAX_ICON_BYTES } from '../../../../src/agents/registry/icon';
import { SAFE_SVG, SCRIPT_SVG } from '../../../fixtures/registry/registryServer';

const svg = (body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 16 16">${body}</svg>`);

describe('registry icons', () => {
  it('a plain SVG or PNG becomes a data: URI', () => {
    const uri = iconDataUri(Buffer.from(SAFE_SVG));
    assert.ok(uri?.startsWith('data:image/svg+xml;base64,'));
    assert.strictEqual(Buffer.from((uri ?? "").split(',')[1], 'base64').toString(), SAFE_SVG);
    assert.ok(iconDataUri(Buffer.from(`<?xml version="1.0"?>\n<!-- made by hand -->\n${SAFE_SVG}\n`))?.startsWith('data:image/svg+xml'));
    assert.ok(iconDataUri(svg('<defs><linearGradient id="g"/></defs><rect fill="url(#g)"/><use href="#g"/><use xlink:href="#g"/>')));
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(20)]);
    assert.ok(iconDataUri(png)?.startsWith('data:image/png;base64,'));
  });

  it('an SVG with script, handlers, foreign content, entities or external references is not shown at all', () => {
    const hostile = [
      SCRIPT_SVG,
      svg('<rect onclick="alert(1)"/>').toString(),
      svg('<foreignObject><iframe src="https://x"/></foreignObject>').toString(),
      svg('<a href="javascript:alert(1)"><rect/></a>').toString(),
      svg('<image href="https://tracker.invalid/p.png"/>').toString(),
      svg('<use xlink:href="https://x/sprite.svg#a"/>').toString(),
      svg('<style>@import url(https://x/a.css);</style>').toString(),
      svg('<rect style="fill:url(https://x/p)"/>').toString(),
      `<!DOCTYPE svg [<!ENTITY a "aaaa">]>${SAFE_SVG}`,
    ];
    for (const text of hostile) assert.strictEqual(iconDataUri(Buffer.from(text)), undefined, text);
  });

  it('anything else (HTML, empty, too large) is not shown', () => {
    assert.strictEqual(iconDataUri(Buffer.from('<html><svg></svg></html>')), undefined);
    assert.strictEqual(iconDataUri(Buffer.alloc(0)), undefined);
    assert.strictEqual(iconDataUri(svg(`<desc>${'x'.repeat(MAX_ICON_BYTES)}</desc>`)), undefined);
  });
});
