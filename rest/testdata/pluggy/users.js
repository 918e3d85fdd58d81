// A custom sandbox user through the official Node client unchanged: the user is registered
// with one POST (the client has no call for it, as with curl in docs/sandbox.md), then the
// item is created with createItem by its username, its SMS code sent with updateItemMFA,
// and what the description says is read back with the client. Exits non-zero on the first
// broken expectation.
'use strict'
const assert = require('node:assert/strict')
const ponte = require('./ponte')

async function main() {
  const base = process.env.PLUGGY_API_URL
  const client = ponte.newClient()
  const settle = (id) => ponte.settle(client, id)
  const auth = await fetch(`${base}/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ clientId: process.env.PONTE_CLIENT_ID, clientSecret: process.env.PONTE_CLIENT_SECRET }),
  })
  const { apiKey } = await auth.json()
  const reg = await fetch(`${base}/sandbox/users`, {
    method: 'POST',
    headers: { 'X-API-KEY': apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username: 'sdk.user', mfa: 'SMS',
      accounts: [{ type: 'BANK', subtype: 'CHECKING_ACCOUNT', number: '777-1', balance: 42.1,
        transactions: [{ date: '2026-02-03', description: 'SALARIO', amount: 3000 }, { date: '2026-02-04', description: 'MERCADO', amount: -85.9 }] }],
      identity: { fullName: 'Cliente SDK', document: '52998224725' },
    }),
  })
  assert.equal(reg.status, 200, await reg.clone().text())

  const item = await client.createItem(0, { user: 'sdk.user', password: 'qualquer-senha' })
  const waiting = await settle(item.id)
  assert.equal(waiting.status, 'WAITING_USER_INPUT')
  assert.equal(waiting.parameter.name, 'phone')
  await client.updateItemMFA(item.id, { phone: '123456' })
  const done = await settle(item.id)
  assert.equal(done.status, 'UPDATED')

  const accounts = await client.fetchAccounts(item.id)
  assert.equal(accounts.results.length, 1)
  const account = accounts.results[0]
  const transactions = await client.fetchAllTransactions(account.id)
  const identity = await client.fetchIdentityByItemId(item.id)
  console.log(JSON.stringify({
    account: { number: account.number, balance: account.balance },
    transactions: transactions.map((t) => ({ amount: t.amount, type: t.type, description: t.description })),
    fullName: identity.fullName,
  }))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
