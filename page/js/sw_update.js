// updateServiceWorkers asks the service worker registrations of the
// page's origin with the given scopes to update: each fetches its script
// again and, when it changed, installs the new version. It resolves once
// every check is done, with each scope's error ('' when the check went
// through).
function updateServiceWorkers(scopes) {
  const container = navigator.serviceWorker;
  if (!container) {
    return scopes.map((scope) => ({ scope, error: 'this page cannot reach service workers (it is not a secure context)' }));
  }
  return Promise.all(scopes.map((scope) => container.getRegistration(scope).then((reg) => {
    if (!reg || reg.scope !== scope) return { scope, error: 'no longer registered' };
    return reg.update().then(() => ({ scope, error: '' }), (e) => ({ scope, error: e.name + ': ' + e.message }));
  })));
}
