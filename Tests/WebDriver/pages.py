"""The test pages the suite serves, by path (the loopback server and the private nginx serve the same)."""

_LOG = "<div id=log></div><script>function log(s){document.getElementById('log').textContent += s + ';'}</script>"

PAGES = {
    "/title.html": "<!doctype html><title>Title page</title><h1 id=h>Hello</h1>"
                   "<a id=next href=next.html>Next page</a> <a id=popup href=next.html target=_blank>Popup</a>",
    "/next.html": "<!doctype html><title>Next</title><p id=p>Second page</p>",
    # No eval (a CSP without unsafe-eval), and globals with names a remote end might use itself.
    "/csp.html": "<!doctype html><meta http-equiv=Content-Security-Policy content=\"script-src 'unsafe-inline'\">"
                 "<title>CSP</title><script>var serialize = 'page', post = 'page', channel = 'page'</script>",
    "/counter.html": "<!doctype html><title>Counter</title><p id=n></p><script>"
                     "sessionStorage.n = (+sessionStorage.n || 0) + 1; n.textContent = sessionStorage.n</script>",
    "/find.html": """<!doctype html><title>Find</title>
<div id=main class=box><p class=item>one</p><p class=item>two</p><p class=item>three</p>
<span id=inside>inner span</span></div>
<a id=go href=next.html>Go to the next page</a>
<input name=q value=query>
<div id=host></div>
<script>
const root = document.getElementById('host').attachShadow({mode: 'open'});
root.innerHTML = '<span class=shadowed>in the shadow</span><input id=shadowinput>';
</script>""",
    "/state.html": """<!doctype html><title>State</title>
<style>#box { position: absolute; left: 310px; top: 20px; width: 100px; height: 50px; color: rgb(255, 0, 0); }</style>
<div id=box data-kind=square title=Boxy>Box text</div>
<input id=check type=checkbox checked>
<input id=uncheck type=checkbox>
<select id=sel><option value=a>A</option><option id=optb value=b selected>B</option></select>
<button id=off disabled>Off</button>
<div id=hidden style="display:none">hidden text</div>
<div id=roled role=button aria-label="Close dialog">X</div>
<button id=save aria-label=Save>S</button>
<h2 id=heading>Heading</h2>
<input id=field value=initial>
<a id=rel href=next.html>rel</a>""",
    "/form.html": """<!doctype html><title>Form</title>
<form id=f action=next.html onsubmit="log('submit'); return false">
<input id=text name=text value=start>
<textarea id=area>old</textarea>
<input id=hidden type=hidden name=h value=x>
<input id=invisible style="display:none">
<button id=submit>Go</button>
</form>
<button id=btn onclick="log('click:' + event.isTrusted)">Press</button>
<input id=keys onkeydown="log('down:' + event.key + ':' + event.shiftKey)">
""" + _LOG,
    "/actions.html": """<!doctype html><title>Actions</title>
<style>div.t { width: 80px; height: 40px; margin: 4px; background: #ccc }
#drop { width: 150px; height: 150px; background: #aaf } #drag { position: absolute; width: 40px; height: 40px;
left: 300px; top: 10px; background: #faa }</style>
<div class=t id=hover onmouseover="log('over')">hover</div>
<div class=t id=clickme onclick="log('click:' + event.isTrusted)">click</div>
<div class=t id=dbl ondblclick="log('dbl')">double</div>
<div class=t id=ctx oncontextmenu="log('ctx:' + event.button); return false">context</div>
<input id=keys onkeydown="log('down:' + event.key)" onkeyup="log('up:' + event.key)">
<div id=drop></div><div id=drag></div>
<div style="height: 3000px"></div><div id=far>far below</div>
<script>
let dragging = false;
drag.addEventListener('mousedown', () => { dragging = true; });
document.addEventListener('mouseup', e => {
  if (!dragging) return; dragging = false;
  const r = drop.getBoundingClientRect();
  if (e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom) log('dropped');
});
addEventListener('wheel', e => log('wheel:' + (e.deltaY > 0)));
</script>""" + _LOG,
    "/frames.html": """<!doctype html><title>Frames</title><p id=top>top</p>
<iframe id=fa name=fa src=frame_a.html></iframe><iframe id=fb src=frame_b.html></iframe>""",
    "/frame_a.html": "<!doctype html><title>A</title><p id=which>frame a</p>"
                     "<iframe id=inner src=frame_inner.html></iframe>",
    "/frame_b.html": "<!doctype html><title>B</title><p id=which>frame b</p>",
    "/frame_inner.html": "<!doctype html><title>Inner</title><p id=which>inner frame</p>",
    "/alerts.html": """<!doctype html><title>Alerts</title>
<button id=alert onclick="alert('Hello alert'); log('after-alert')">alert</button>
<button id=confirm onclick="log('confirm:' + confirm('Sure?'))">confirm</button>
<button id=prompt onclick="log('prompt:' + prompt('Name?', 'def'))">prompt</button>""" + _LOG,
    "/text.html": """<!doctype html><title>Text</title>
<p id=nbsp>a&nbsp;&nbsp;b&nbsp;</p>
<table><tr id=row>
  <td>one</td>
  <td>two</td>
  <th>three</th>
</tr><tr id=compact><td>one</td><td>two</td><th>three</th></tr></table>
<pre id=pre>  line one
    line two	end</pre>
<div id=prewrap style="white-space: pre-wrap">a   b</div>
<div id=preline style="white-space: pre-line">a   b
  c</div>
<p id=upper style="text-transform: uppercase">hello World</p>
<p id=cap style="text-transform: capitalize">hello wORLD</p>
<p id=capwords style="text-transform: capitalize">o'neil snake_case</p>
<p id=lower style="text-transform: lowercase">HeLLo</p>
<div id=blocks>one<div>two</div>three<p>four</p><span>five</span> six</div>
<div id=breaks>a<br>b<br><br>c</div>
<div id=mixed>vis <span style="visibility: hidden">hidden</span> <span style="display: none">none</span>
<span style="opacity: 0">clear</span> end</div>
<div id=invisible style="visibility: hidden">outer <span style="visibility: visible">inner</span></div>
<div id=host></div>
<div id=slots><span slot=s>slotted</span> default</div>
<a id=link href=next.html>Next&nbsp;page</a>
<script>
document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = 'shadow <b>text</b>';
document.getElementById('slots').attachShadow({mode: 'open'}).innerHTML = 'before <slot name=s></slot> after <slot></slot>';
</script>""",
    "/interact.html": """<!doctype html><title>Interact</title>
<style>button, input, select { display: block; margin: 4px }</style>
<button id=invisible style="visibility: hidden" onclick="log('invisible')">invisible</button>
<button id=transparent style="opacity: 0" onclick="log('transparent')">transparent</button>
<div style="position: relative"><button id=covered>covered</button>
<div style="position: absolute; inset: 0"></div></div>
<input type=checkbox id=hiddenbox style="display: none">
<input type=checkbox id=clearbox style="opacity: 0">
<select id=hiddensel style="visibility: hidden"><option>a</option><option id=hiddenopt>b</option></select>
<select id=sel><option id=o1>a</option><option id=o2>b</option><option id=o3 disabled>c</option></select>
<input id=field value=abc>
<input id=disabled value=abc disabled>
<input id=readonly value=abc readonly>
<input id=invisiblefield value=abc style="visibility: hidden">
<script>
for (const t of ['mouseover', 'mousedown', 'focus', 'input', 'change', 'mouseup', 'click', 'blur']) {
  for (const id of ['sel', 'field']) document.getElementById(id).addEventListener(t, () => log(id + ':' + t));
}
</script>""" + _LOG,
    "/long.html": "<!doctype html><title>Long</title>" + "".join(f"<p>Paragraph {i}</p>" for i in range(200)),
    "/submit.html": """<!doctype html><title>Submit</title>
<form id=f action="/next.html"><input id=q name=q value=x><button id=go>Go</button></form>
<form id=late action="/next.html" onsubmit="event.preventDefault(); setTimeout(() => this.submit(), 0)">
<input id=lq name=lq value=y><button id=later>Later</button></form>
<a id=frag href="#part">part</a> <p id=part>part</p>
<button id=push onclick="history.pushState({}, '', '/pushed.html')">push</button>
<a id=slowlink href="/slow?s=1">slow</a>""",
    "/files.html": """<!doctype html><title>Files</title>
<input id=one type=file><input id=folder type=file webkitdirectory>
<script>
function chosen(id) {
  return Array.from(document.getElementById(id).files, (f) => [f.name, f.webkitRelativePath, f.size]);
}
</script>""",
    "/dates.html": "<!doctype html><title>Dates</title><input id=date type=date><input id=month type=month>"
                   "<input id=time type=time><input id=local type=datetime-local>",
    "/bidi.html": """<!doctype html><title>BiDi</title><p id=p class=para>text</p><a id=frag href=#part>part</a>
<script>
window.sawPreload = window.preloaded;
console.log('logged', 1, {a: 2});
console.warn('warned');
console.error('errored');
setTimeout(() => { throw new TypeError('thrown later'); }, 0);
</script>""",
    "/links.html": """<!doctype html><title>Links</title><a href="/title.html">the title page</a>""",
    "/intercept.html": """<!doctype html><title>Intercept</title><script src="/api/script.js"></script><script>
window.fetched = fetch('/api/data').then(async r => r.status + ' ' + (await r.text())).catch(e => 'failed: ' + e.name);
</script>""",
    "/bidi_hostile.html": """<!doctype html><title>Hostile</title><p id=p>text</p><script>
window.eval = () => 'hijacked';
Reflect.apply = () => 'hijacked';
Function.prototype.apply = () => 'hijacked';
Object.prototype.__node = 'polluted';
Array.prototype.push = function () { throw new Error('push was replaced'); };
Promise.prototype.then = function () { throw new Error('then was replaced'); };
Object.defineProperty(Object.prototype, Symbol.toStringTag, { get() { return 'Map'; } });
window.Set = function () { throw new Error('Set was replaced'); };
</script>""",
}
