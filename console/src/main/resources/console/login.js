'use strict';
document.getElementById('login').addEventListener('submit', async (e) => {
  e.preventDefault();
  const error = document.getElementById('error');
  error.textContent = '';
  const r = await fetch('/api/login', {
    method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({user: document.getElementById('user').value, password: document.getElementById('password').value})
  });
  if (r.ok) {
    window.location.href = '/';
  } else {
    const body = await r.json().catch(() => ({error: 'login failed'}));
    error.textContent = body.error;
  }
});
