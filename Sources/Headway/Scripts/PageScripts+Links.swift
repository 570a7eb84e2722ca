extension PageScripts {
    // Async-function body that lists the links a person might follow from the page, each URL
    // once with its best `source` (`declared`, `viewport`, `document`), the markers of every
    // anchor that has it, whether an anchor has `rel=next` (`next`), whether a moderate or
    // conservative speculation rule names it (`suggested`), and the top of its first anchor in
    // the document (`y`, -1 for none), as a JSON string `{"links":[...],"notes":[...]}`; a note
    // says why a speculation-rules script was ignored. docs/booster.md lists what counts as declared.
    static let anchors = SelectAllScript.source + #"""
    const rank = { declared: 0, viewport: 1, document: 2 };
    const links = new Map();
    const notes = [];
    const add = (href, source, a, suggested) => {
      if (!href) return;
      const rel = a ? String(a.getAttribute('rel') || '') : '';
      const marks = {
        download: !!a && a.hasAttribute('download'),
        nofollow: /(^|\s)nofollow(\s|$)/i.test(rel),
        optOut: !!a && (a.closest('[data-no-prefetch]') !== null || /(^|\s)no-?prefetch(\s|$)/i.test(rel)),
        next: /(^|\s)next(\s|$)/i.test(rel),
        suggested: !!suggested,
      };
      const known = links.get(href);
      if (!known) {
        const y = a ? a.getBoundingClientRect().top + scrollY : -1;
        return void links.set(href, { href, source, y, ...marks });
      }
      if (rank[source] < rank[known.source]) known.source = source;
      if (known.y < 0 && a) known.y = a.getBoundingClientRect().top + scrollY;
      for (const key of Object.keys(marks)) known[key] = known[key] || marks[key];
    };
    const resolve = (text) => { try { return new URL(String(text), document.baseURI).href; } catch (_) { return ''; } };
    const hrefOf = (a) => (typeof a.href === 'string' ? a.href : resolve(a.getAttribute('href')));
    const real = (href) => href.replace(/^headway-(https?):/i, '$1:');
    const glob = (pattern) => new RegExp(
      '^' + pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
    const compiled = new Map();
    const urlPattern = (pattern) => {
      const key = JSON.stringify(pattern);
      if (!compiled.has(key)) {
        compiled.set(key, typeof pattern === 'string' ? new URLPattern(pattern, document.baseURI)
          : new URLPattern({ baseURL: document.baseURI, ...pattern }));
      }
      return compiled.get(key);
    };
    const hrefMatches = (pattern, href) => {
      try {
        if (typeof URLPattern === 'function') {
          const p = urlPattern(pattern);
          return p.test(href) || p.test(real(href));
        }
        if (typeof pattern === 'string') {
          const re = glob(resolve(pattern));
          return re.test(href) || re.test(real(href));
        }
        return typeof pattern.pathname === 'string' && glob(pattern.pathname).test(new URL(href).pathname);
      } catch (_) { return false; }
    };
    const matches = (where, a) => {
      if (where === undefined) return true;
      if (!where || typeof where !== 'object') return false;
      if (Array.isArray(where.and)) return where.and.every((w) => matches(w, a));
      if (Array.isArray(where.or)) return where.or.some((w) => matches(w, a));
      if ('not' in where) return !matches(where.not, a);
      if ('href_matches' in where) return [].concat(where.href_matches).some((p) => hrefMatches(p, hrefOf(a)));
      if ('selector_matches' in where) {
        return [].concat(where.selector_matches)
          .some((s) => { try { return a.matches(s); } catch (_) { return false; } });
      }
      return false;
    };
    const anchors = selectAll(document, 'a[href]');
    const eager = (rule, fallback) => ['immediate', 'eager'].includes(rule.eagerness || fallback);
    const speculationRules = (text) => {
      let set;
      try { set = JSON.parse(text); } catch (error) {
        notes.push('Headway ignored a speculationrules script that is not valid JSON: ' + error.message);
        return;
      }
      if (!set || typeof set !== 'object' || Array.isArray(set)) {
        notes.push('Headway ignored a speculationrules script that is not a JSON object');
        return;
      }
      for (const action of ['prefetch', 'prerender']) {
        const rules = Array.isArray(set[action]) ? set[action] : [];
        for (const rule of rules) {
          if (!rule || typeof rule !== 'object') continue;
          const source = rule.source || (rule.urls ? 'list' : rule.where ? 'document' : '');
          if (source === 'list' && Array.isArray(rule.urls)) {
            const hinted = eager(rule, 'immediate');
            for (const url of rule.urls) add(resolve(url), hinted ? 'declared' : 'document', null, !hinted);
          } else if (source === 'document') {
            const hinted = eager(rule, 'conservative');
            for (const a of anchors) {
              if (matches(rule.where, a)) add(hrefOf(a), hinted ? 'declared' : 'document', a, !hinted);
            }
          }
        }
      }
    };
    for (const el of selectAll(document, 'link[rel][href], script[type="speculationrules" i]')) {
      if (el.localName === 'script') { speculationRules(el.textContent); continue; }
      const rel = el.getAttribute('rel').toLowerCase().split(/\s+/);
      const as = (el.getAttribute('as') || '').toLowerCase();
      const fetches = (rel.includes('prefetch') || rel.includes('prerender')) && (as === '' || as === 'document');
      if (rel.includes('next') || fetches) add(el.href, 'declared');
    }
    const visible = (a) => {
      const r = a.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0 || r.right <= 0 || r.bottom <= 0
          || r.left >= innerWidth || r.top >= innerHeight) return false;
      if (typeof a.checkVisibility === 'function') {
        return a.checkVisibility({ visibilityProperty: true, opacityProperty: true });
      }
      return getComputedStyle(a).visibility === 'visible';
    };
    for (const a of anchors) add(hrefOf(a), visible(a) ? 'viewport' : 'document', a);
    return JSON.stringify({ links: Array.from(links.values()), notes });
    """#
}
