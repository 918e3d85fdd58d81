// The documented values as the official Node client reads them: the sandbox connectors,
// items of the scenario users, their accounts and transactions and user-ok's investment
// transactions, each fetched with the client's own calls and printed as it parsed them,
// for the Go test to look for every documented value in. Exits non-zero on an error.
'use strict'
const ponte = require('./ponte')

const users = ['user-ok', 'user-ok-every-value', 'user-ok-account-error', 'user-locked',
  'user-ok-img', 'user-ok-select', 'user-ok-qr', 'user-ok-auth-pending']

async function main() {
  const client = ponte.newClient()
  const settle = (id) => ponte.settle(client, id)
  const out = { connectors: (await client.fetchConnectors({ sandbox: true })).results, items: [], accounts: [], transactions: [], investmentTransactions: [] }
  for (const user of users) {
    const created = await client.createItem(0, { user, password: 'password-ok' })
    const item = await settle(created.id)
    out.items.push(item)
    if (item.status !== 'UPDATED') continue
    for (const account of (await client.fetchAccounts(item.id)).results) {
      out.accounts.push(account)
      for (const tx of await client.fetchAllTransactions(account.id)) {
        out.transactions.push({ ...tx, accountType: account.type })
      }
    }
    if (user === 'user-ok') {
      for (const inv of (await client.fetchInvestments(item.id)).results) {
        out.investmentTransactions.push(...(await client.fetchInvestmentTransactions(inv.id)).results)
      }
    }
  }
  console.log(JSON.stringify(out))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
