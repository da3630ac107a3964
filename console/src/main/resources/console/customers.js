'use strict';
// The Customers tab: the customers the gateways authenticate (names and mechanisms only), Basic passwords and
// API keys added, rotated and revoked. A new key is shown once, in the line under the table. Every change is answered
// once the live gateways apply it (or names those that did not); the line above the table shows each gateway's
// version of the credentials. Uses api() of app.js.

// "applied by gw1, gw2" and, if any, "not applied within the deadline by gw3": what a change's answer says.
function reach(r) {
  if (r.applied === undefined) return '';
  const applied = r.applied.length ? 'applied by ' + r.applied.join(', ') : 'no live gateway to apply it';
  return ' (' + applied + (r.pending.length ? '; not applied within the deadline by ' + r.pending.join(', ') : '') + ')';
}

async function loadCustomers() {
  renderCustomers(await api('/api/customers'));
}

function renderCustomers(list) {
  document.getElementById('customer-mechanisms').textContent =
    'Basic passwords ' + (list.basic ? 'on' : 'off (gateway.authentication.basic.htpasswd not set)') +
    '; API keys ' + (list.apiKeys ? 'on' : 'off (gateway.authentication.apiKey.file not set)');
  const gateways = Object.entries(list.rollout.gateways);
  document.getElementById('customer-rollout').textContent = gateways.length === 0 ? 'No live gateway authenticates customers.'
    : 'Credentials version ' + list.rollout.version + '; ' + gateways.map(([g, v]) =>
      g + (v >= list.rollout.version ? ' has it' : ' has ' + (v === 0 ? 'none from the console' : 'version ' + v))).join(', ') + '.';
  const body = document.querySelector('#customer-table tbody');
  const out = document.getElementById('customer-result');
  body.replaceChildren();
  for (const c of list.customers) {
    const tr = document.createElement('tr');
    const name = document.createElement('td'); name.textContent = c.customer;
    const mech = document.createElement('td'); mech.textContent = c.mechanisms.join(', ');
    const actions = document.createElement('td');
    const act = (label, kind, method, body, done) => {
      const b = document.createElement('button'); b.type = 'button'; b.textContent = label;
      b.addEventListener('click', async () => {
        if (method === 'DELETE' && !confirm(label + ' for ' + c.customer + '?')) return;
        try {
          const r = await api('/api/customers/' + kind + '/' + encodeURIComponent(c.customer),
            {method, body: body ? JSON.stringify(body()) : undefined});
          out.textContent = done(r) + reach(r); await loadCustomers();
        } catch (e) { out.textContent = e.message; }
      });
      actions.append(b, ' ');
    };
    if (c.mechanisms.includes('basic')) {
      const pw = document.createElement('input'); pw.type = 'password'; pw.autocomplete = 'new-password';
      pw.placeholder = 'new password'; actions.append(pw, ' ');
      act('Set password', 'basic', 'PUT', () => ({password: pw.value}), () => c.customer + ': password changed');
      act('Revoke password', 'basic', 'DELETE', null, () => c.customer + ': password revoked');
    }
    if (c.mechanisms.includes('api-key')) {
      act('Rotate key', 'keys', 'PUT', null, r => c.customer + "'s new key (shown once): " + r.key);
      act('Revoke key', 'keys', 'DELETE', null, () => c.customer + ': key revoked');
    }
    tr.append(name, mech, actions);
    body.appendChild(tr);
  }
}

function customerForms() {
  const basic = document.getElementById('customer-basic-form');
  basic.addEventListener('submit', async (ev) => {
    ev.preventDefault(); clearErrors(basic);
    const body = {customer: basic.elements.customer.value.trim(), password: basic.elements.password.value};
    try { const r = await api('/api/customers/basic', {method: 'POST', body: JSON.stringify(body)});
      basic.querySelector('.result').textContent = body.customer + ' added' + reach(r); basic.reset(); await loadCustomers(); }
    catch (e) { showError(basic, e); }
  });
  const key = document.getElementById('customer-key-form');
  key.addEventListener('submit', async (ev) => {
    ev.preventDefault(); clearErrors(key);
    const customer = key.elements.customer.value.trim();
    try { const r = await api('/api/customers/keys', {method: 'POST', body: JSON.stringify({customer})});
      key.querySelector('.result').textContent = customer + "'s key (shown once): " + r.key + reach(r); key.reset();
      await loadCustomers(); }
    catch (e) { showError(key, e); }
  });
}
