// The fixture app's page: a server search with a region filter and paging, and the
// signed-in user's API keys. Plain DOM, no framework; every text is set as text.
import { createApi } from './api.js';

const api = createApi(document.body.dataset.api);
const $ = (id) => document.getElementById(id);
let page = 1;

async function search() {
  $('status').textContent = 'Loading…';
  $('error').hidden = true;
  const filters = { page: String(page) };
  if ($('region').value) filters.region = $('region').value;
  try {
    const found = await api.findServers(filters);
    $('servers').replaceChildren(
      ...found.results.map((s) => {
        const li = document.createElement('li');
        li.textContent =
          `${s.address}:${s.port}: ${s.motd_stripped ?? '(no MOTD)'} ` + `(${s.players_online}/${s.players_limit})`;
        return li;
      }),
    );
    $('status').textContent = found.total === 0 ? 'No servers found.' : `${found.total} servers, page ${page}`;
  } catch (err) {
    $('servers').replaceChildren();
    $('status').textContent = '';
    $('error').textContent = err.message;
    $('error').hidden = false;
  }
}

async function keys() {
  try {
    const list = await api.listKeys();
    $('keys').replaceChildren(
      ...list.keys.map((k) => {
        const li = document.createElement('li');
        li.textContent = k.name ?? '(unnamed)';
        return li;
      }),
    );
    $('keys-status').textContent = `${list.keys.length} keys`;
  } catch (err) {
    $('keys-status').textContent = err.status === 401 ? 'Sign in to see your keys.' : err.message;
  }
}

$('region').addEventListener('change', () => {
  page = 1;
  search();
});
$('next').addEventListener('click', () => {
  page++;
  search();
});
$('login').addEventListener('click', async () => {
  await api.login('alice@example.test');
  await keys();
});
search();
keys();
