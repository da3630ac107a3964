'use strict';
// The SLA tab: attainment per customer and class over a span against each contract's objective, the error budget
// left and the burn rate of the last hour (a row burning its budget faster than the period allows is marked); a row
// chosen shows its span hour by hour (attainment so far and budget left) and its worst hours. Uses api() of app.js.

let slaChosen = null;

function slaQuery() {
  const span = document.getElementById('sla-span').value;
  const month = document.getElementById('sla-month');
  month.hidden = span !== 'month';
  const q = new URLSearchParams();
  if (span === 'month') { if (month.value) q.set('month', month.value); } else if (span) q.set(...span.split('='));
  const customer = document.getElementById('sla-customer').value.trim();
  if (customer) q.set('customer', customer);
  return q;
}

const pct = v => v === null || v === undefined ? '–' : (v * 100).toFixed(2) + '%';

async function loadSla() {
  const out = document.getElementById('sla-result');
  let report;
  try {
    report = await api('/api/sla?' + slaQuery());
  } catch (e) { out.textContent = e.message; return; }
  out.textContent = report.rows.length ? '' : 'No requests of a class with an objective were counted in this span.';
  document.getElementById('sla-span-text').textContent = report.span + ' (' + report.from + ' to ' + report.to + ')';
  const body = document.querySelector('#sla-table tbody');
  body.replaceChildren();
  for (const r of report.rows) {
    const tr = document.createElement('tr');
    tr.dataset.customer = r.customer; tr.dataset.class = r.class;
    if (r.burning) tr.classList.add('burning');
    if (r.budget_remaining !== null && r.budget_remaining < 0) tr.classList.add('missed');
    const cells = [r.customer, r.class, r.requests, r.good, pct(r.attainment), pct(r.objective), pct(r.budget_remaining),
      r.burn_rate_1h.toFixed(2) + (r.burning ? ' ▲ burning' : '')];
    for (const c of cells) { const td = document.createElement('td'); td.textContent = c; tr.appendChild(td); }
    tr.addEventListener('click', () => { slaChosen = {customer: r.customer, cls: r.class}; loadSlaHours(); });
    body.appendChild(tr);
  }
  if (!slaChosen && report.rows.length) slaChosen = {customer: report.rows[0].customer, cls: report.rows[0].class};
  if (slaChosen) await loadSlaHours();
}

async function loadSlaHours() {
  const q = slaQuery();
  q.set('customer', slaChosen.customer);
  q.set('class', slaChosen.cls);
  const h = await api('/api/sla/hours?' + q);
  document.getElementById('sla-chart-title').textContent = h.customer + ' in ' + h.class + ', objective ' + pct(h.objective);
  if (!charts['chart-sla']) {
    charts['chart-sla'] = new Chart(document.getElementById('chart-sla'), {type: 'line', data: {labels: [], datasets: []},
      options: {animation: false, maintainAspectRatio: false,
        scales: {y: {suggestedMin: 0, suggestedMax: 1, title: {display: true, text: 'share'}}},
        plugins: {legend: {position: 'bottom'}}}});
  }
  const chart = charts['chart-sla'];
  chart.data.labels = h.hours.map(x => x.start.slice(0, 13).replace('T', ' ') + 'h');
  chart.data.datasets = [
    {label: 'attainment so far', data: h.hours.map(x => x.attainment_so_far), borderColor: palette[0]},
    {label: 'error budget left', data: h.hours.map(x => x.budget_remaining), borderColor: palette[4]},
    {label: 'objective', data: h.hours.map(() => h.objective), borderColor: '#888', borderDash: [4, 4], pointRadius: 0}];
  chart.update();
  const worst = document.querySelector('#sla-worst tbody');
  worst.replaceChildren();
  if (!h.worst.length) {
    const tr = document.createElement('tr'); const td = document.createElement('td');
    td.colSpan = 3; td.textContent = 'No hour of the span had a bad request.'; tr.appendChild(td); worst.appendChild(tr);
  }
  for (const w of h.worst) {
    const tr = document.createElement('tr');
    for (const c of [w.start, w.requests, w.bad]) { const td = document.createElement('td'); td.textContent = c; tr.appendChild(td); }
    worst.appendChild(tr);
  }
}

function slaForms() {
  document.getElementById('sla-span').addEventListener('change', () => { if (document.getElementById('sla-span').value !== 'month') loadSla(); else slaQuery(); });
  document.getElementById('sla-refresh').addEventListener('click', loadSla);
  document.getElementById('sla-print').addEventListener('click', () => window.print());
}
