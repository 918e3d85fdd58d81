// A custom sandbox user through the official Node client unchanged: the user is registered
// with one POST (the client has no call for it, as with curl in docs/sandbox.md), then the
// item is created with createItem by its username, its SMS code sent with updateItemMFA,
// and what the description says (the account, its transactions, the card's details and
// bill, the investment's movements) is read back with the client. Exits non-zero on the first
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
        transactions: [{ date: '2026-02-03', description: 'SALARIO', amount: 3000 }, { date: '2026-02-04', description: 'MERCADO', amount: -85.9 }] },
      { type: 'CREDIT', subtype: 'CREDIT_CARD', number: '9090', balance: 250,
        creditData: { brand: 'ELO', creditLimit: 2000, availableCreditLimit: 1750, balanceDueDate: '2026-03-10' },
        bills: [{ dueDate: '2026-02-10', totalAmount: 410.3, financeCharges: [{ type: 'IOF', amount: 2.1 }] }] }],
      investments: [{ name: 'Tesouro Selic', type: 'FIXED_INCOME', balance: 500,
        transactions: [{ date: '2026-01-15', type: 'BUY', amount: 500, quantity: 0.03 }] }],
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

  const accounts = await client.fetchAccounts(item.id, 'BANK')
  assert.equal(accounts.results.length, 1)
  const account = accounts.results[0]
  const transactions = await client.fetchAllTransactions(account.id)
  const identity = await client.fetchIdentityByItemId(item.id)
  const cards = await client.fetchAccounts(item.id, 'CREDIT')
  assert.equal(cards.results.length, 1)
  const card = cards.results[0]
  const bills = await client.fetchCreditCardBills(card.id)
  const investments = await client.fetchInvestments(item.id)
  assert.equal(investments.results.length, 1)
  const movements = await client.fetchAllInvestmentTransactions(investments.results[0].id)
  console.log(JSON.stringify({
    account: { number: account.number, balance: account.balance },
    card: { brand: card.creditData.brand, creditLimit: card.creditData.creditLimit, availableCreditLimit: card.creditData.availableCreditLimit },
    bills: bills.results.map((b) => ({ totalAmount: b.totalAmount, charges: b.financeCharges.map((c) => c.type + ':' + c.amount) })),
    movements: movements.map((m) => ({ type: m.type, movementType: m.movementType, amount: m.amount, quantity: m.quantity })),
    transactions: transactions.map((t) => ({ amount: t.amount, type: t.type, description: t.description })),
    fullName: identity.fullName,
  }))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
