// What the page runs on, told from the globals, attributes and element
// properties each framework leaves behind: meta-frameworks first, then
// UI libraries, then helpers, with a version where the page exposes one
// ("Next.js 14.2.3, React 18.3.1"). "" when nothing is recognised. Each
// probe is guarded: a page's odd globals must not break the context.
function framework() {
  const w = window;
  const d = document;
  const found = [];
  const probe = (name, fn) => {
    try {
      const v = fn();
      if (v) found.push(typeof v === 'string' ? name + ' ' + v : name);
    } catch (e) { /* not this one */ }
  };
  const q = (sel) => d.querySelector(sel);
  // g reads a global a script set, never one the browser made up: an
  // element's id or name is a window property too (<a id="next"> is
  // window.next), and so is a named frame's window. Those are no markers.
  const g = (name) => {
    if (!Object.prototype.hasOwnProperty.call(w, name)) return undefined;
    const v = w[name];
    if (v instanceof Node || v instanceof HTMLCollection) return undefined;
    if (v && typeof v === 'object' && v !== w && v.window === v) return undefined;
    return v;
  };
  const version = (v) => (typeof v === 'string' && /^\d/.test(v) ? v : true);
  // containers are where React and Vue hang their roots.
  const containers = [d.getElementById('root'), d.getElementById('app'), d.getElementById('__next'),
    d.getElementById('__nuxt'), d.body, d.body && d.body.firstElementChild].filter(Boolean);
  const hasKey = (prefix) => containers.some((el) => Object.getOwnPropertyNames(el).some((k) => k.startsWith(prefix)));

  probe('Next.js', () => (g('next') && version(g('next').version)) || g('__NEXT_DATA__') ||
    q('#__next, script[src*="/_next/"], script#__NEXT_DATA__[type="application/json"]'));
  probe('Nuxt', () => g('__NUXT__') || g('$nuxt') || q('#__nuxt'));
  probe('Remix', () => g('__remixContext'));
  probe('Gatsby', () => q('#___gatsby'));
  probe('SvelteKit', () => Object.keys(w).some((k) => k.startsWith('__sveltekit')) || q('[data-sveltekit-preload-data]'));
  probe('Astro', () => q('astro-island'));
  probe('React', () => (g('React') && version(g('React').version)) ||
    hasKey('__reactContainer$') || hasKey('_reactRootContainer') || hasKey('__reactFiber$') || q('[data-reactroot]'));
  probe('Preact', () => g('preact'));
  probe('Vue', () => {
    const app = q('[data-v-app]');
    if (app && app.__vue_app__) return version(app.__vue_app__.version);
    return (g('Vue') && version(g('Vue').version)) || app || hasKey('__vue');
  });
  probe('Angular', () => {
    const el = q('[ng-version]');
    return el ? version(el.getAttribute('ng-version')) : g('ng') && g('getAllAngularRootElements');
  });
  probe('AngularJS', () => (g('angular') && version(g('angular').version && g('angular').version.full)) || q('[ng-app], [data-ng-app], .ng-scope'));
  probe('Svelte', () => g('__svelte') || q('[class*="svelte-"]'));
  probe('SolidJS', () => g('_$HY') || q('[data-hk]'));
  probe('Qwik', () => q('[q\\:container]'));
  probe('Lit', () => g('litElementVersions') || g('litHtmlVersions'));
  probe('Ember', () => (g('Ember') && version(g('Ember').VERSION)) || q('.ember-application'));
  probe('Backbone', () => g('Backbone') && version(g('Backbone').VERSION));
  probe('Knockout', () => g('ko') && version(g('ko').version));
  probe('Alpine.js', () => (g('Alpine') && version(g('Alpine').version)) || q('[x-data]'));
  probe('htmx', () => g('htmx') && version(g('htmx').version));
  probe('Turbo', () => g('Turbo'));
  probe('Stimulus', () => g('Stimulus'));
  probe('Ext JS', () => g('Ext') && version(g('Ext').version));
  probe('Dojo', () => g('dojo') && version(g('dojo').version && String(g('dojo').version)));
  probe('Prototype', () => g('Prototype') && version(g('Prototype').Version));
  probe('MooTools', () => g('MooTools') && version(g('MooTools').version));
  probe('jQuery', () => g('jQuery') && g('jQuery').fn && version(g('jQuery').fn.jquery));
  if (!found.length) {
    probe('', () => {
      const m = q('meta[name=generator]');
      return m && m.content.trim().slice(0, 40);
    });
  }
  return found.map((s) => s.trim()).join(', ');
}
