/**
 * What the page runs on, told from the globals, attributes and element
 * properties each framework leaves behind: meta-frameworks first, then
 * UI libraries, then helpers, with a version where the page exposes one
 * ("Next.js 14.2.3, React 18.3.1"). "" when nothing is recognised. Each
 * probe is guarded: a page's odd globals must not break the context.
 */
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
  const version = (v) => (typeof v === 'string' && /^\d/.test(v) ? v : true);
  // containers are where React and Vue hang their roots.
  const containers = [d.getElementById('root'), d.getElementById('app'), d.getElementById('__next'),
    d.getElementById('__nuxt'), d.body, d.body && d.body.firstElementChild].filter(Boolean);
  const hasKey = (prefix) => containers.some((el) => Object.getOwnPropertyNames(el).some((k) => k.startsWith(prefix)));

  probe('Next.js', () => (w.next && version(w.next.version)) || w.__NEXT_DATA__ || q('#__next, script[src*="/_next/"]'));
  probe('Nuxt', () => w.__NUXT__ || w.$nuxt || q('#__nuxt'));
  probe('Remix', () => w.__remixContext);
  probe('Gatsby', () => q('#___gatsby'));
  probe('SvelteKit', () => Object.keys(w).some((k) => k.startsWith('__sveltekit')) || q('[data-sveltekit-preload-data]'));
  probe('Astro', () => q('astro-island'));
  probe('React', () => (w.React && version(w.React.version)) ||
    hasKey('__reactContainer$') || hasKey('_reactRootContainer') || hasKey('__reactFiber$') || q('[data-reactroot]'));
  probe('Preact', () => w.preact);
  probe('Vue', () => {
    const app = q('[data-v-app]');
    if (app && app.__vue_app__) return version(app.__vue_app__.version);
    return (w.Vue && version(w.Vue.version)) || app || hasKey('__vue');
  });
  probe('Angular', () => {
    const el = q('[ng-version]');
    return el ? version(el.getAttribute('ng-version')) : w.ng && w.getAllAngularRootElements;
  });
  probe('AngularJS', () => (w.angular && version(w.angular.version && w.angular.version.full)) || q('[ng-app], [data-ng-app], .ng-scope'));
  probe('Svelte', () => w.__svelte || q('[class*="svelte-"]'));
  probe('SolidJS', () => w._$HY || q('[data-hk]'));
  probe('Qwik', () => q('[q\\:container]'));
  probe('Lit', () => w.litElementVersions || w.litHtmlVersions);
  probe('Ember', () => (w.Ember && version(w.Ember.VERSION)) || q('.ember-application'));
  probe('Backbone', () => w.Backbone && version(w.Backbone.VERSION));
  probe('Knockout', () => w.ko && version(w.ko.version));
  probe('Alpine.js', () => (w.Alpine && version(w.Alpine.version)) || q('[x-data]'));
  probe('htmx', () => w.htmx && version(w.htmx.version));
  probe('Turbo', () => w.Turbo);
  probe('Stimulus', () => w.Stimulus);
  probe('Ext JS', () => w.Ext && version(w.Ext.version));
  probe('Dojo', () => w.dojo && version(w.dojo.version && String(w.dojo.version)));
  probe('Prototype', () => w.Prototype && version(w.Prototype.Version));
  probe('MooTools', () => w.MooTools && version(w.MooTools.version));
  probe('jQuery', () => w.jQuery && w.jQuery.fn && version(w.jQuery.fn.jquery));
  if (!found.length) {
    probe('', () => {
      const g = q('meta[name=generator]');
      return g && g.content.trim().slice(0, 40);
    });
  }
  return found.map((s) => s.trim()).join(', ');
}
