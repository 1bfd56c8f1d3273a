// Reports whether this window's document handed out ref.
(ref) => !!(window.__ariaRefs && window.__ariaRefs.has(ref))
