'use strict';
// The console page: fetches the state once, then follows the bus through Server-Sent Events.
let me = null;
let classes = [];
let history = [];
let liveGateways = {};
const charts = {};
const palette = ['#1f6feb', '#d97706', '#059669', '#9333ea', '#dc2626', '#0891b2', '#65a30d', '#db2777'];

async function api(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (options.method && options.method !== 'GET') {
    headers['X-CSRF-Token'] = me.csrf;
    if (options.body) headers['Content-Type'] = 'application/json';
  }
  const r = await fetch(path, Object.assign({}, options, {headers}));
  if (r.status === 401) { window.location.href = '/login.html'; throw new Error('logged out'); }
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { const e = new Error(body.error || r.statusText); e.field = body.field; throw e; }
  return body;
}

function showTab(name) {
  if (!document.getElementById(name) || !document.getElementById(name).classList.contains('tab')) name = 'overview';
  document.querySelectorAll('.tab').forEach(s => { s.hidden = s.id !== name; });
  document.querySelectorAll('nav a').forEach(a => a.classList.toggle('active', a.dataset.tab === name));
  if (name === 'audit') loadAudit();
  if (name === 'users' && me.role === 'admin') loadUsers();
  if (name === 'customers' && me.role === 'admin') loadCustomers();
  if (name === 'sla') loadSla();
}

/** Shows an API error next to its field in {@code form}, or in its result line. */
function showError(form, e) {
  const slot = e.field && form.querySelector('.field-error[data-for="' + e.field + '"]');
  (slot || form.querySelector('.result')).textContent = e.message;
}

function clearErrors(form) {
  form.querySelectorAll('.field-error, .result').forEach(x => { x.textContent = ''; });
}

async function loadUsers() {
  renderUsers(await api('/api/users'));
}

function renderUsers(users) {
  const body = document.querySelector('#user-table tbody');
  const out = document.getElementById('user-result');
  body.replaceChildren();
  for (const u of users) {
    const tr = document.createElement('tr');
    const name = document.createElement('td'); name.textContent = u.user;
    const role = document.createElement('td');
    const sel = document.createElement('select');
    sel.append(new Option('read-only', 'read-only'), new Option('admin', 'admin'));
    sel.value = u.role; role.appendChild(sel);
    const pw = document.createElement('td');
    const input = document.createElement('input'); input.type = 'password'; input.autocomplete = 'new-password';
    pw.appendChild(input);
    const actions = document.createElement('td');
    const save = document.createElement('button'); save.type = 'button'; save.textContent = 'Save';
    save.addEventListener('click', async () => {
      const change = {role: sel.value};
      if (input.value) change.password = input.value;
      try { renderUsers(await api('/api/users/' + encodeURIComponent(u.user), {method: 'PUT', body: JSON.stringify(change)}));
        out.textContent = u.user + ' saved; their sessions ended'; } catch (e) { out.textContent = e.message; }
    });
    const del = document.createElement('button'); del.type = 'button'; del.textContent = 'Delete';
    del.addEventListener('click', async () => {
      if (!confirm('Delete user ' + u.user + '?')) return;
      try { renderUsers(await api('/api/users/' + encodeURIComponent(u.user), {method: 'DELETE'})); out.textContent = u.user + ' deleted'; }
      catch (e) { out.textContent = e.message; }
    });
    actions.append(save, ' ', del);
    tr.append(name, role, pw, actions);
    body.appendChild(tr);
  }
}

async function controllerSettings() {
  const form = document.getElementById('controller-form');
  const now = await api('/api/controller');
  form.elements.cycleSeconds.value = now.cycleSeconds;
  form.elements.combining.value = now.combining;
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault(); clearErrors(form);
    const body = {cycleSeconds: Number(form.elements.cycleSeconds.value), combining: form.elements.combining.value};
    try { const r = await api('/api/controller', {method: 'PUT', body: JSON.stringify(body)});
      form.querySelector('.result').textContent = r.note; } catch (e) { showError(form, e); }
  });
}

function usersAndPassword() {
  const form = document.getElementById('user-form');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault(); clearErrors(form);
    const body = {user: form.elements.user.value.trim(), role: form.elements.role.value, password: form.elements.password.value};
    try { renderUsers(await api('/api/users', {method: 'POST', body: JSON.stringify(body)}));
      form.querySelector('.result').textContent = body.user + ' added'; form.reset(); } catch (e) { showError(form, e); }
  });
  const mine = document.getElementById('password-form');
  mine.addEventListener('submit', async (ev) => {
    ev.preventDefault(); clearErrors(mine);
    const body = {current: mine.elements.current.value, password: mine.elements.password.value};
    try { await api('/api/me/password', {method: 'PUT', body: JSON.stringify(body)}); window.location.href = '/login.html'; }
    catch (e) { showError(mine, e); }
  });
}

function flowKey(p) { return p.gatewayId + '/' + p.className; }

function chart(id, yLabel) {
  charts[id] = new Chart(document.getElementById(id), {
    type: 'line',
    data: {datasets: []},
    options: {animation: false, parsing: false, normalized: true, spanGaps: true,
      scales: {x: {type: 'linear', title: {display: true, text: 'seconds ago'}, reverse: false,
        ticks: {callback: v => Math.round(v)}}, y: {beginAtZero: true, title: {display: true, text: yLabel}}},
      plugins: {legend: {position: 'bottom'}}, elements: {point: {radius: 0}}}
  });
}

function redraw() {
  const windowSeconds = Number(document.getElementById('window').value);
  const now = Date.now();
  const points = history.filter(p => now - p.timestampMillis <= windowSeconds * 1000);
  const keys = [...new Set(points.map(flowKey))].sort();
  const series = (field) => keys.map((k, i) => ({label: k, borderColor: palette[i % palette.length], borderWidth: 1.5,
    data: points.filter(p => flowKey(p) === k).map(p => ({x: (p.timestampMillis - now) / 1000, y: p[field]}))}));
  const rt = series('responseSeconds');
  classes.filter(c => c.goalSeconds != null).forEach((c, i) => rt.push({label: 'goal ' + c.name + ' (' + c.goal + ')', borderDash: [6, 4], borderColor: '#888',
    borderWidth: 1, data: [{x: -windowSeconds, y: c.goalSeconds}, {x: 0, y: c.goalSeconds}]}));
  charts['chart-rt'].data.datasets = rt;
  charts['chart-w'].data.datasets = series('weight');
  charts['chart-x'].data.datasets = series('throughput');
  charts['chart-q'].data.datasets = series('queueLength');
  for (const c of Object.values(charts)) { c.options.scales.x.min = -windowSeconds; c.options.scales.x.max = 0; c.update(); }
}

function utility(c, t) {
  const p = c.utility.parameters;
  if (c.utility.type !== 'pacifici' || c.targetSeconds == null) return '';
  const phi = p.phi ?? 1, a = p.alpha ?? 1, b = p.beta ?? 1, tau = c.targetSeconds;
  return (t <= tau ? phi * Math.pow(tau - t, a) : -phi * Math.pow(t - tau, b)).toFixed(3);
}

/** Per customer with a quota (bucket key), the demand the gateways reported, in total and per gateway. */
function renderQuotas(gateways) {
  const demand = {};
  for (const [gw, s] of Object.entries(gateways)) {
    for (const [key, rate] of Object.entries(s.quotaDemand || {})) {
      (demand[key] = demand[key] || {})[gw] = Number(rate);
    }
  }
  const body = document.querySelector('#quotas tbody');
  body.replaceChildren();
  const keys = Object.keys(demand).sort();
  if (!keys.length) {
    const tr = document.createElement('tr');
    const td = document.createElement('td');
    td.colSpan = 3; td.className = 'muted'; td.textContent = 'no customer with a quota has sent a request lately';
    tr.appendChild(td); body.appendChild(tr);
    return;
  }
  for (const key of keys) {
    const byGateway = demand[key];
    const total = Object.values(byGateway).reduce((a, b) => a + b, 0);
    const tr = document.createElement('tr');
    [key, total.toFixed(1), Object.entries(byGateway).map(([g, r]) => g + ' ' + r.toFixed(1)).join(', ')]
      .forEach(v => { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); });
    body.appendChild(tr);
  }
}

function renderFlows(gateways) {
  renderQuotas(gateways);
  const body = document.querySelector('#flows tbody');
  body.replaceChildren();
  for (const [gw, s] of Object.entries(gateways)) {
    for (const f of s.flows) {
      const c = classes.find(x => x.name === f.className);
      const tr = document.createElement('tr');
      const attained = Number(f.attainment), pct = Number(f.percentileSeconds);
      const cells = [gw, f.className, f.arrivalRate.toFixed(2), f.meanResponseSeconds.toFixed(3),
        Number.isFinite(pct) ? pct.toFixed(3) : '', c ? c.goal : '', Number.isFinite(attained) ? (100 * attained).toFixed(1) + '%' : '—',
        c ? utility(c, f.meanResponseSeconds) : '', f.weight.toFixed(2), f.queueLength, f.rejectionRate.toFixed(2),
        Number.isFinite(Number(f.failureRate)) ? Number(f.failureRate).toFixed(2) : ''];
      cells.forEach(v => { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); });
      tr.children[6].classList.add('attainment');
      if (c && c.targetSeconds != null && f.meanResponseSeconds > c.targetSeconds) tr.children[3].classList.add('bad');
      if (c && c.percentile != null && Number.isFinite(pct) && pct > c.percentileTargetSeconds) tr.children[4].classList.add('bad');
      // the headline: a percentile goal is met while at least that share is within it; a mean goal has no such share
      if (c && c.percentile != null && Number.isFinite(attained) && attained < c.percentile / 100) tr.children[6].classList.add('bad');
      body.appendChild(tr);
    }
  }
}

/** Whether every flow of a decision measured a response time within its class's target. */
function unconstrained(d) {
  const flows = (d.flows || []).filter(f => f.arrivalRate > 0);
  return flows.length > 0 && flows.every(f => {
    const c = classes.find(x => x.name === f.className);
    return c && (c.targetSeconds == null || f.observedSeconds <= c.targetSeconds);
  });
}

let lastDecision = null;

/** One line in the Events card (newest first, the last 50), as text: nothing from the bus is parsed as markup. */
function showEvent(text) {
  const list = document.getElementById('events');
  if (!list) return;
  if (list.dataset.some !== 'yes') { list.replaceChildren(); list.dataset.some = 'yes'; }
  const li = document.createElement('li');
  li.textContent = text;
  list.prepend(li);
  while (list.children.length > 50) list.lastChild.remove();
}

/** The note under an auto server's N_s: its bounds, and the manager's N_s, knee and reason from the last decision. */
function autoNote(note) {
  const live = ((lastDecision && lastDecision.servers) || []).find(x => x.serverId === note.dataset.server);
  note.textContent = 'auto ' + note.dataset.bounds + (live ? ': N_s ' + live.concurrency
    + (Number.isFinite(Number(live.knee)) ? ', knee ' + Number(live.knee).toFixed(1) : '') + ' — ' + live.reason : ': no decision yet');
}

function renderDecision(d) {
  if (!d) return;
  lastDecision = d;
  document.querySelectorAll('.auto-ns').forEach(autoNote);
  document.getElementById('decision-summary').textContent = (d.paused ? 'PAUSED — ' : '') + 'version ' + d.version + ', '
    + new Date(d.timestampMillis).toLocaleTimeString() + ', cluster utility ' + (d.clusterUtility ?? NaN).toFixed(3)
    + ', solved in ' + d.solveMillis.toFixed(2) + ' ms' + (unconstrained(d)
      ? ' — every class is within its target: the controller is unconstrained, and it keeps the allocation unless a move gains'
        + ' more than a small threshold (controller.minGain)' : '');
  document.getElementById('last-cycle').textContent = 'last control cycle ' + new Date(d.timestampMillis).toLocaleTimeString()
    + (d.paused ? ' (paused)' : '');
  const body = document.querySelector('#decision tbody');
  body.replaceChildren();
  for (const f of d.flows) {
    const tr = document.createElement('tr');
    const forecast = f.forecastRate == null || Number.isNaN(Number(f.forecastRate)) ? '' : ' → ' + Number(f.forecastRate).toFixed(2);
    [f.gatewayId, f.className, f.arrivalRate.toFixed(2) + forecast, f.observedSeconds.toFixed(3), f.previousWeight.toFixed(2),
      f.weight.toFixed(2), f.predictedSeconds.toFixed(3), f.utility.toFixed(3), f.pinned ? 'yes' : '', f.model ?? '',
      f.modelError == null || Number.isNaN(Number(f.modelError)) ? '—' : (f.modelError * 100).toFixed(0) + '%',
      f.modelGain == null ? '' : f.modelGain.toFixed(2)]
      .forEach(v => { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); });
    body.appendChild(tr);
  }
  renderTuning(d.tuning);
  renderCapacity(d.capacity);
}

/** Per pool, the capacity signal an autoscaler reads: slots it has and needs, servers to add (negative: to spare), per class. */
function renderCapacity(pools) {
  const body = document.querySelector('#capacity tbody');
  body.replaceChildren();
  for (const p of pools || []) {
    const unknown = v => v == null || Number.isNaN(Number(v));
    const servers = unknown(p.servers) ? 'none would help (a target below the service time)'
      : p.servers > 0 ? '+' + p.servers + ' to add' : p.servers < 0 ? -p.servers + ' to spare' : 'enough';
    const perClass = Object.entries(p.neededByClass || {})
      .map(([c, v]) => c + ' ' + (unknown(v) ? 'out of reach' : Number(v).toFixed(1))).join(', ');
    const tr = document.createElement('tr');
    [p.pool, p.haveSlots, unknown(p.neededSlots) ? '—' : Number(p.neededSlots).toFixed(1), servers, perClass]
      .forEach(v => { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); });
    body.appendChild(tr);
  }
}

let lastTuning = [];

/** The selected tuning partition's name (the first when none is selected yet). */
function tuningPartition() {
  const select = document.getElementById('tuning-partition');
  return select.value || (lastTuning[0] && lastTuning[0].partition) || '';
}

/**
 * The online tuner's card: shown only where controller.tuning is configured; with partitions, a selector
 * picks which partition's tuner the card shows and its buttons command.
 */
function renderTuning(list) {
  lastTuning = list || [];
  const card = document.getElementById('tuning');
  card.hidden = lastTuning.length === 0;
  if (card.hidden) return;
  const select = document.getElementById('tuning-partition');
  const names = lastTuning.map(p => p.partition);
  if (Array.from(select.options).map(o => o.value).join('\n') !== names.join('\n')) {
    const keep = select.value;
    select.replaceChildren(...names.map(n => { const o = document.createElement('option'); o.value = n; o.textContent = n; return o; }));
    if (names.includes(keep)) select.value = keep;
  }
  document.getElementById('tuning-partition-label').hidden = names.length < 2;
  const t = lastTuning.find(p => p.partition === tuningPartition()) || lastTuning[0];
  const fmt = v => v == null || Number.isNaN(Number(v)) ? '—' : Number(v).toFixed(3);
  const knobs = (values) => t.knobs.map((k, i) => k + ' ' + (values[i] == null ? '?' : Number(values[i]).toFixed(2))).join(', ');
  document.getElementById('tuning-summary').textContent = 'state ' + t.state + '; best ' + (t.best.length ? knobs(t.best) : 'not measured yet')
    + '; utility before tuning ' + fmt(t.baselineUtility) + ', now safe ' + fmt(t.safeUtility) + ', experimental '
    + fmt(t.experimentalUtility) + '; ' + t.trials.length + ' trial' + (t.trials.length === 1 ? '' : 's') + ' shown';
  const body = document.querySelector('#tuning-trials tbody');
  body.replaceChildren();
  for (const x of t.trials.slice().reverse()) {
    const tr = document.createElement('tr');
    [x.number, knobs(x.values), fmt(x.experimental), fmt(x.safe), x.outcome]
      .forEach(v => { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); });
    body.appendChild(tr);
  }
  if (typeof Chart === 'undefined') return;
  if (!charts['chart-tuning']) {
    charts['chart-tuning'] = new Chart(document.getElementById('chart-tuning'), {type: 'scatter', data: {datasets: []},
      options: {animation: false, maintainAspectRatio: false,
        scales: {x: {title: {display: true, text: 'trial'}}, y: {title: {display: true, text: 'utility'}}},
        plugins: {legend: {position: 'bottom'}}}});
  }
  const points = (field) => t.trials.filter(x => Number.isFinite(Number(x[field]))).map(x => ({x: x.number, y: Number(x[field])}));
  charts['chart-tuning'].data.datasets = [
    {label: 'experimental side (the trial)', data: points('experimental'), backgroundColor: palette[1]},
    {label: 'safe side (the best known)', data: points('safe'), backgroundColor: palette[0]}];
  charts['chart-tuning'].update();
}

async function loadAudit() {
  const rows = await api('/api/audit?limit=200');
  const body = document.querySelector('#audit-table tbody');
  body.replaceChildren();
  for (const e of rows) {
    const tr = document.createElement('tr');
    [new Date(e.timestampMillis).toLocaleString(), e.user, e.action, e.detail, e.address]
      .forEach(v => { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); });
    body.appendChild(tr);
  }
}

function formJson(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name || el.value === '') continue;
    out[el.name] = el.type === 'number' ? Number(el.value) : el.value;
  }
  return out;
}

function wireForm(id, path, unpinQuery) {
  const form = document.getElementById(id);
  const result = form.querySelector('.result');
  const clear = () => { form.querySelectorAll('.field-error').forEach(e => { e.textContent = ''; }); result.textContent = ''; };
  const fail = (e) => {
    const slot = e.field && form.querySelector('.field-error[data-for="' + e.field + '"]');
    (slot || result).textContent = e.message;
  };
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault(); clear();
    try { await api(path, {method: 'POST', body: JSON.stringify(formJson(form))}); result.textContent = 'done'; } catch (e) { fail(e); }
  });
  form.querySelector('[data-unpin]').addEventListener('click', async () => {
    clear();
    try { await api(path + '?' + new URLSearchParams(unpinQuery(formJson(form))), {method: 'DELETE'}); result.textContent = 'unpinned'; }
    catch (e) { fail(e); }
  });
}

function classForm() {
  const form = document.getElementById('class-form');
  const v = (n) => form.elements[n].value;
  const plot = () => {
    const tau = Number(v('targetSeconds')) || Number(v('percentileTargetSeconds')) || 1, phi = Number(v('phi')) || 1, a = Number(v('alpha')) || 1, b = Number(v('beta')) || 1;
    const pts = [];
    for (let i = 0; i <= 60; i++) { const t = 3 * tau * i / 60; pts.push({x: t, y: t <= tau ? phi * Math.pow(tau - t, a) : -phi * Math.pow(t - tau, b)}); }
    charts['chart-u'].data.datasets = [{label: 'U(t)', data: pts, borderColor: palette[0], borderWidth: 1.5}];
    charts['chart-u'].options.scales.x.min = 0; charts['chart-u'].options.scales.x.max = 3 * tau;
    charts['chart-u'].update();
  };
  const fill = () => {
    const c = classes.find(x => x.name === v('name'));
    if (!c) { plot(); return; }
    form.elements.targetSeconds.value = c.targetSeconds ?? '';
    form.elements.percentile.value = c.percentile ?? '';
    form.elements.percentileTargetSeconds.value = c.percentileTargetSeconds ?? '';
    ['phi', 'alpha', 'beta'].forEach(p => { form.elements[p].value = c.utility.parameters[p] ?? 1; });
    form.elements.queueBound.value = c.queueBound;
    form.elements.importance.value = c.importance ?? 0;
    form.elements.discretionary.checked = !!c.discretionary;
    form.elements.queueTimeoutSeconds.value = c.queueTimeoutSeconds;
    plot();
  };
  form.elements.name.addEventListener('change', fill);
  form.addEventListener('input', plot);
  const result = form.querySelector('.result');
  const clear = () => { form.querySelectorAll('.field-error').forEach(e => { e.textContent = ''; }); result.textContent = ''; };
  const fail = (e) => { const slot = e.field && form.querySelector('.field-error[data-for="' + e.field + '"]'); (slot || result).textContent = e.message; };
  const reload = async (r) => { classes = r.classes; result.textContent = r.note; renderClasses(); };
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault(); clear();
    const body = {utility: {type: 'pacifici', parameters: {phi: Number(v('phi')), alpha: Number(v('alpha')), beta: Number(v('beta'))}}};
    body.targetSeconds = v('targetSeconds') ? Number(v('targetSeconds')) : null;
    body.percentile = v('percentile') ? Number(v('percentile')) : null;
    if (v('percentileTargetSeconds')) body.percentileTargetSeconds = Number(v('percentileTargetSeconds'));
    if (v('queueBound')) body.queueBound = Number(v('queueBound'));
    body.importance = v('importance') === '' ? null : Number(v('importance'));
    body.discretionary = form.elements.discretionary.checked;
    if (body.discretionary) { body.targetSeconds = null; body.percentile = null; } // it has no goal
    if (v('queueTimeoutSeconds')) body.queueTimeoutSeconds = Number(v('queueTimeoutSeconds'));
    const exists = classes.some(c => c.name === v('name'));
    try {
      await reload(exists ? await api('/api/classes/' + encodeURIComponent(v('name')), {method: 'PUT', body: JSON.stringify(body)})
        : await api('/api/classes', {method: 'POST', body: JSON.stringify(Object.assign({name: v('name')}, body))}));
    } catch (e) { fail(e); }
  });
  document.getElementById('class-delete').addEventListener('click', async () => {
    clear();
    try { await reload(await api('/api/classes/' + encodeURIComponent(v('name')), {method: 'DELETE'})); } catch (e) { fail(e); }
  });
  charts['chart-u'] = new Chart(document.getElementById('chart-u'), {type: 'line', data: {datasets: []},
    options: {animation: false, parsing: false, scales: {x: {type: 'linear', title: {display: true, text: 't (s)'}},
      y: {title: {display: true, text: 'U'}}}, elements: {point: {radius: 0}}, plugins: {legend: {display: false}}}});
  fill();
}

async function serversAndClassification() {
  const render = (servers) => {
    const body = document.querySelector('#server-table tbody');
    body.replaceChildren();
    for (const sv of servers) {
      const tr = document.createElement('tr');
      [sv.id, sv.url, sv.pool].forEach(v => { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); });
      const st = document.createElement('td');
      st.textContent = Object.entries(liveGateways).map(([gw, s]) => {
        const x = (s.servers || []).find(y => y.serverId === sv.id);
        return x ? gw + ': ' + (x.inRotation ? 'in rotation' : 'OUT') + ', ' + x.outstanding + '/' + x.cap
          + (x.localityGroup ? ', locality: ' + x.localityGroup : '')
          + (x.servingPool && x.servingPool !== sv.pool ? ', moved: serving pool ' + x.servingPool : '') : gw + ': ?';
      }).join('; ') || 'no gateway reporting';
      tr.appendChild(st);
      const ns = document.createElement('td');
      const input = document.createElement('input');
      input.type = 'number'; input.min = '1'; input.step = '1'; input.value = sv.concurrency;
      ns.appendChild(input);
      if (sv.auto) {
        // concurrency: auto: the manager's N_s, its knee and why (a number saved here replaces auto)
        const note = document.createElement('div');
        note.className = 'muted auto-ns';
        note.dataset.server = sv.id;
        note.dataset.bounds = sv.auto.min + '–' + sv.auto.max;
        autoNote(note);
        ns.appendChild(note);
      }
      tr.appendChild(ns);
      const actions = document.createElement('td');
      const save = document.createElement('button'); save.type = 'button'; save.textContent = 'Save N_s'; save.className = 'admin';
      const drain = document.createElement('button'); drain.type = 'button'; drain.textContent = 'Drain'; drain.className = 'admin';
      const out = document.getElementById('server-result');
      save.addEventListener('click', async () => {
        try { const r = await api('/api/servers/' + encodeURIComponent(sv.id), {method: 'PUT', body: JSON.stringify({concurrency: Number(input.value)})});
          out.textContent = r.note; render(r.servers); } catch (e) { out.textContent = e.message; }
      });
      drain.addEventListener('click', async () => {
        try { const r = await api('/api/servers/' + encodeURIComponent(sv.id) + '/drain', {method: 'POST'}); out.textContent = r.note; }
        catch (e) { out.textContent = e.message; }
      });
      actions.append(save, ' ', drain);
      if ((sv.pools || []).length > 1) {
        // A movable server: the operator can keep it where it serves now, and let it move again
        for (const [label, method] of [['Pin pool', 'POST'], ['Unpin pool', 'DELETE']]) {
          const b = document.createElement('button'); b.type = 'button'; b.textContent = label; b.className = 'admin';
          b.addEventListener('click', async () => {
            try { const r = await api('/api/servers/' + encodeURIComponent(sv.id) + '/pool-pin', {method}); out.textContent = r.note; }
            catch (e) { out.textContent = e.message; }
          });
          actions.append(' ', b);
        }
      }
      tr.appendChild(actions);
      body.appendChild(tr);
    }
  };
  render(await api('/api/servers'));
  await classificationEditor();
}

/** Subscriptions and rules as tables, saved as the configuration's classification section. */
async function classificationEditor() {
  const form = document.getElementById('classification-form');
  const section = await api('/api/classification');
  const cell = (value, name) => {
    const td = document.createElement('td');
    const input = document.createElement('input');
    input.name = name; input.value = value == null ? '' : value;
    td.appendChild(input);
    return td;
  };
  const classSelect = (value) => {
    const td = document.createElement('td');
    const sel = document.createElement('select');
    sel.name = 'class';
    sel.append(...classes.map(c => new Option(c.name, c.name)));
    sel.value = value || (classes[0] && classes[0].name);
    td.appendChild(sel);
    return td;
  };
  const button = (text, action) => {
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = text; b.addEventListener('click', action);
    return b;
  };
  const rowActions = (tr, movable) => {
    const td = document.createElement('td');
    if (movable) {
      td.append(button('↑', () => tr.previousElementSibling && tr.parentNode.insertBefore(tr, tr.previousElementSibling)), ' ',
        button('↓', () => tr.nextElementSibling && tr.parentNode.insertBefore(tr.nextElementSibling, tr)), ' ');
    }
    td.append(button('Remove', () => tr.remove()));
    tr.appendChild(td);
  };
  const subscriptions = document.querySelector('#subscription-table tbody');
  const addSubscription = (customer, service, grade) => {
    const tr = document.createElement('tr');
    tr.append(cell(customer, 'customer'), cell(service || '*', 'service'), cell(grade, 'grade'));
    rowActions(tr, false);
    subscriptions.appendChild(tr);
  };
  const rules = document.querySelector('#rule-table tbody');
  const addRule = (r) => {
    const tr = document.createElement('tr');
    tr.append(cell(r.customer, 'customer'), cell(r.service, 'service'), cell(r.operation, 'operation'), cell(r.grade, 'grade'), classSelect(r.class));
    rowActions(tr, true);
    rules.appendChild(tr);
  };
  const from = section.customerFrom || 'basic';
  form.elements.customerSource.value = from.startsWith('header:') ? 'header' : 'basic';
  form.elements.customerHeader.value = from.startsWith('header:') ? from.substring(7) : '';
  form.elements.defaultGrade.value = section.defaultGrade || '';
  form.elements.defaultClass.replaceChildren(new Option('(the last class)', ''), ...classes.map(c => new Option(c.name, c.name)));
  form.elements.defaultClass.value = section.defaultClass || '';
  for (const [customer, services] of Object.entries(section.subscriptions || {})) {
    for (const [service, grade] of Object.entries(services || {})) addSubscription(customer, service, grade);
  }
  (section.rules || []).forEach(addRule);
  document.getElementById('add-subscription').addEventListener('click', () => addSubscription('', '*', ''));
  document.getElementById('add-rule').addEventListener('click', () => addRule({}));

  const value = (tr, name) => tr.querySelector('[name="' + name + '"]').value.trim();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const result = form.querySelector('.result');
    const err = form.querySelector('.field-error');
    result.textContent = ''; err.textContent = '';
    const out = {customerFrom: form.elements.customerSource.value === 'header'
      ? 'header:' + form.elements.customerHeader.value.trim() : 'basic'};
    if (form.elements.defaultGrade.value.trim()) out.defaultGrade = form.elements.defaultGrade.value.trim();
    const subs = {};
    for (const tr of subscriptions.rows) {
      const customer = value(tr, 'customer');
      if (!customer) continue;
      (subs[customer] = subs[customer] || {})[value(tr, 'service') || '*'] = value(tr, 'grade');
    }
    out.subscriptions = subs;
    out.rules = [...rules.rows].map(tr => {
      const r = {};
      for (const k of ['customer', 'service', 'operation', 'grade']) { const v = value(tr, k); if (v && v !== '*') r[k] = v; }
      r.class = tr.querySelector('[name="class"]').value;
      return r;
    });
    if (form.elements.defaultClass.value) out.defaultClass = form.elements.defaultClass.value;
    try { const r = await api('/api/classification', {method: 'PUT', body: JSON.stringify(out)}); result.textContent = r.note; }
    catch (e) { err.textContent = e.message; }
  });
}

function renderClasses() {
  const table = document.querySelector('#class-table tbody');
  table.replaceChildren();
  for (const c of classes) {
    const tr = document.createElement('tr');
    [c.name, c.goal + (c.importance ? ' (importance ' + c.importance + ')' : ''), c.utility.type + ' ' + JSON.stringify(c.utility.parameters), c.queueBound, c.queueTimeoutSeconds, c.pool]
      .forEach(v => { const td = document.createElement('td'); td.textContent = v; tr.appendChild(td); });
    tr.classList.add('clickable');
    tr.title = 'edit ' + c.name;
    tr.addEventListener('click', () => {
      const form = document.getElementById('class-form');
      form.elements.name.value = c.name;
      form.elements.name.dispatchEvent(new Event('change'));
      form.elements.targetSeconds.focus();
    });
    table.appendChild(tr);
  }
  document.getElementById('class-names').replaceChildren(...classes.map(c => new Option(c.name)));
  document.querySelector('#pin-weight select[name=class]').replaceChildren(...classes.map(c => new Option(c.name, c.name)));
}

async function start() {
  me = await api('/api/me');
  document.getElementById('me').textContent = me.user + ' (' + me.role + ')';
  if (me.role !== 'admin') document.body.classList.add('read-only');
  classes = await api('/api/classes');
  const servers = await api('/api/servers');
  document.querySelector('#pin-capacity select[name=server]').replaceChildren(...servers.map(s => new Option(s.id + ' (N_s ' + s.concurrency + ')', s.id)));
  renderClasses();
  chart('chart-rt', 'seconds'); chart('chart-w', 'weight'); chart('chart-x', 'req/s'); chart('chart-q', 'requests');
  history = await api('/api/history?seconds=3600');
  const state = await api('/api/state');
  document.getElementById('bus').textContent = state.busConnected ? 'bus connected' : 'bus down';
  document.getElementById('bus').className = 'pill ' + (state.busConnected ? 'ok' : 'down');
  renderFlows(state.gateways);
  renderDecision(state.decision);
  redraw();
  const events = new EventSource('/api/events');
  const gateways = state.gateways;
  liveGateways = gateways;
  const heard = {};
  for (const gw of Object.keys(gateways)) heard[gw] = Date.now();
  events.addEventListener('bus', (e) => {
    const m = JSON.parse(e.data);
    if (m.type === 'stats') {
      if (m.flashCrowd) showEvent(new Date(m.timestampMillis).toLocaleTimeString() + ' — gateway ' + m.gatewayId
        + ': flash crowd of class ' + m.flashCrowd + '; the resource manager runs a cycle now');
      gateways[m.gatewayId] = m;
      heard[m.gatewayId] = Date.now();
      for (const f of m.flows) {
        history.push({timestampMillis: m.timestampMillis, gatewayId: m.gatewayId, className: f.className,
          responseSeconds: f.meanResponseSeconds, throughput: f.throughput, rejectionRate: f.rejectionRate,
          queueLength: f.queueLength, weight: f.weight});
      }
      const cutoff = Date.now() - 3600 * 1000;
      while (history.length && history[0].timestampMillis < cutoff) history.shift();
      renderFlows(gateways);
      redraw();
    } else if (m.type === 'decision') {
      renderDecision(m);
    } else if (m.type === 'gateway-gone') {
      delete gateways[m.gatewayId];
      renderFlows(gateways);
    }
  });
  // a gateway that stops reporting is not drawn as live (the server says so too, when a message comes);
  // by this browser's clock, from when each report arrived, so that a gateway's clock skew does not matter
  setInterval(() => {
    const cutoff = Date.now() - 1000 * (state.gatewayExpirySeconds || 15);
    let dropped = false;
    for (const gw of Object.keys(gateways)) {
      if ((heard[gw] ?? 0) < cutoff) { delete gateways[gw]; dropped = true; }
    }
    if (dropped) renderFlows(gateways);
  }, 1000);
  document.getElementById('window').addEventListener('change', redraw);
  controllerSettings();
  document.getElementById('pause').addEventListener('click', () => api('/api/controller/pause', {method: 'POST'}));
  document.getElementById('resume').addEventListener('click', () => api('/api/controller/resume', {method: 'POST'}));
  for (const verb of ['start', 'stop', 'revert']) {
    document.getElementById('tuning-' + verb).addEventListener('click', () =>
      api('/api/controller/tuning/' + verb + (tuningPartition() ? '?partition=' + encodeURIComponent(tuningPartition()) : ''),
        {method: 'POST'})
        .catch(e => showEvent('tuning ' + verb + ' refused: ' + e.message)));
  }
  document.getElementById('tuning-partition').addEventListener('change', () => renderTuning(lastTuning));
  wireForm('pin-weight', '/api/overrides/weight', f => ({gateway: f.gateway || '', class: f['class'] || ''}));
  wireForm('pin-capacity', '/api/overrides/capacity', f => ({server: f.server || ''}));
  document.getElementById('tester').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const form = ev.target;
    const r = await api('/api/classify', {method: 'POST', body: JSON.stringify(formJson(form))}).catch(e => ({error: e.message}));
    form.querySelector('.result').textContent = r.error ? r.error : 'class ' + r['class'] + ' (grade ' + r.grade + ')';
  });
  classForm();
  serversAndClassification();
  usersAndPassword();
  customerForms();
  slaForms();
  document.getElementById('logout').addEventListener('click', async () => {
    await api('/api/logout', {method: 'POST'}).catch(() => {});
    window.location.href = '/login.html';
  });
  // the tab follows the URL: links set the hash, and back/forward (or a pasted #classes) switch tabs
  window.addEventListener('hashchange', () => showTab((location.hash || '#overview').slice(1)));
  showTab((location.hash || '#overview').slice(1));
}

start().catch(e => { console.error(e); });
