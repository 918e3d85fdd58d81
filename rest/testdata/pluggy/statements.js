// A new user's path with a statement file, through the official Node client unchanged: the
// item is created with createItem, the file goes up with one POST (the client has no call
// for it, as with curl in the README), and the accounts and transactions are read back
// with the client. Exits non-zero on the first broken expectation.
'use strict'
const assert = require('node:assert/strict')
const fs = require('node:fs')
const ponte = require('./ponte')

async function main() {
  const base = process.env.PLUGGY_API_URL
  const client = ponte.newClient()
  const settle = (id) => ponte.settle(client, id)
  const connector = await client.fetchConnector(900)
  assert.equal(connector.statementFormat, 'OFX')
  const item = await client.createItem(900, {})
  assert.equal((await settle(item.id)).status, 'UPDATED')

  const auth = await fetch(`${base}/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ clientId: process.env.PONTE_CLIENT_ID, clientSecret: process.env.PONTE_CLIENT_SECRET }),
  })
  const { apiKey } = await auth.json()
  const form = new FormData()
  form.append('file', new Blob([fs.readFileSync(process.env.STATEMENT_FILE)]), 'extrato.ofx')
  const up = await fetch(`${base}/items/${item.id}/statements`, { method: 'POST', headers: { 'X-API-KEY': apiKey }, body: form })
  assert.equal(up.status, 200, await up.clone().text())
  assert.equal((await settle(item.id)).status, 'UPDATED')

  const accounts = await client.fetchAccounts(item.id)
  assert.equal(accounts.results.length, 1)
  const account = accounts.results[0]
  const transactions = await client.fetchAllTransactions(account.id)
  assert.ok(transactions.every((t) => t.date instanceof Date))
  console.log(JSON.stringify({
    account: { number: account.number, type: account.type, balance: account.balance },
    transactions: transactions.map((t) => ({ id: t.providerId, amount: t.amount, type: t.type, description: t.description })),
  }))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
