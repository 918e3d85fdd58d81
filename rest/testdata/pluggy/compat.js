// Drives the official Node client, unchanged, against the server at PLUGGY_API_URL.
// Exits non-zero with a message on the first broken expectation.
'use strict'
const assert = require('node:assert/strict')
const { PluggyClient } = require('pluggy-sdk')
const ponte = require('./ponte')

async function rejection(promise) {
  try {
    await promise
  } catch (err) {
    return err
  }
  assert.fail('expected the call to be rejected')
}

// called records every public method of the two clients that this script calls, so that
// the end can check that none of the client's 79 calls went untried.
const called = new Set()
function track(proto, owner) {
  for (const name of Object.getOwnPropertyNames(proto)) {
    const f = proto[name]
    if (name === 'constructor' || typeof f !== 'function') continue
    proto[name] = function (...args) {
      called.add(`${owner}.${name}`)
      return f.apply(this, args)
    }
  }
  return Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor').map((n) => `${owner}.${n}`)
}

async function until(what, check) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.fail(`timed out waiting for ${what}`)
}

async function main() {
  const client = new PluggyClient({
    clientId: process.env.PONTE_CLIENT_ID,
    clientSecret: process.env.PONTE_CLIENT_SECRET,
  })
  const clientCalls = [...track(PluggyClient.prototype, 'PluggyClient'), ...track(Object.getPrototypeOf(client.payments), 'PluggyPaymentsClient')]

  const all = await client.fetchConnectors({ sandbox: true })
  assert.equal(all.total, all.results.length)
  assert.ok(all.results.some((c) => c.id === 0 && c.isSandbox), 'sandbox connector 0 listed')
  assert.ok(all.results[0].createdAt instanceof Date, 'createdAt parsed into a Date')

  const filtered = await client.fetchConnectors({
    countries: ['BR'],
    types: ['INVESTMENT', 'BUSINESS_BANK'],
    sandbox: true,
    healthDetails: true,
  })
  assert.deepEqual(filtered.results.map((c) => c.id).sort(), [2, 3])
  assert.equal(typeof filtered.results[0].health.details.connectionsLast6Hours, 'number')

  const byName = await client.fetchConnectors({ name: 'economica' })
  assert.deepEqual(byName.results.map((c) => c.id), [9])
  const openFinance = await client.fetchConnectors({ isOpenFinance: true, supportsPaymentInitiation: true, sandbox: true })
  assert.deepEqual(openFinance.results.map((c) => c.id).sort(), [5, 6])

  const bank = await client.fetchConnector(0)
  assert.equal(bank.id, 0)
  assert.equal(bank.name, 'Ponte Bank')
  assert.ok(bank.credentials.length >= 2)

  const missing = await rejection(client.fetchConnector(424242))
  assert.equal(missing.codeDescription, 'CONNECTOR_NOT_FOUND', JSON.stringify(missing))
  assert.equal(missing.code, 404)

  const ok = await client.validateParameters(0, { user: 'user-ok', password: 'password-ok' })
  assert.deepEqual(ok.errors, [])
  const bad = await client.validateParameters(0, { user: 'x' })
  assert.deepEqual(bad.errors.map((e) => e.parameter), ['user', 'password'])
  assert.ok(bad.errors.every((e) => e.code && e.message))

  const categories = await client.fetchCategories()
  assert.ok(categories.total >= 100, `total ${categories.total}`)
  const food = await client.fetchCategory('09000000')
  assert.equal(food.descriptionTranslated, 'Food and drinks')

  const token = await client.createConnectToken(undefined, { clientUserId: 'compat-user', avoidDuplicates: true })
  assert.equal(typeof token.accessToken, 'string')
  assert.equal(token.accessToken.split('.').length, 3)

  const noItem = await rejection(client.createConnectToken('6f7e9c1a-0000-4000-8000-000000000000'))
  assert.equal(noItem.codeDescription, 'ITEM_NOT_FOUND', JSON.stringify(noItem))

  // Items: create, poll to UPDATED, update, MFA, fetch, delete.
  const settle = (id) => ponte.settle(client, id)
  const created = await client.createItem(0, { user: 'user-ok', password: 'password-ok' }, { clientUserId: 'sdk-user' })
  assert.equal(created.status, 'UPDATING')
  let item = await settle(created.id)
  assert.equal(item.status, 'UPDATED')
  assert.equal(item.executionStatus, 'SUCCESS')
  assert.equal(item.clientUserId, 'sdk-user')
  assert.ok(item.lastUpdatedAt instanceof Date, 'lastUpdatedAt parsed into a Date')
  assert.equal(item.connector.id, 0)

  const updated = await client.updateItem(created.id, undefined, { clientUserId: 'sdk-user-2' })
  assert.equal(updated.clientUserId, 'sdk-user-2')
  item = await settle(created.id)
  assert.equal(item.status, 'UPDATED')

  const mfaItem = await client.createItem(1, { user: 'user-ok', password: 'password-ok' })
  item = await settle(mfaItem.id)
  assert.equal(item.status, 'WAITING_USER_INPUT')
  assert.equal(item.parameter.name, 'token')
  await client.updateItemMFA(mfaItem.id, { token: '123456' })
  item = await settle(mfaItem.id)
  assert.equal(item.executionStatus, 'SUCCESS')

  // A Connect Token reaches its own item and nothing else.
  const scoped = await client.createConnectToken(created.id)
  const base = process.env.PLUGGY_API_URL
  const own = await fetch(`${base}/items/${created.id}`, { headers: { 'X-API-KEY': scoped.accessToken } })
  assert.equal(own.status, 200)
  const other = await fetch(`${base}/items/${mfaItem.id}`, { headers: { 'X-API-KEY': scoped.accessToken } })
  assert.equal(other.status, 403)
  const cats = await fetch(`${base}/categories`, { headers: { 'X-API-KEY': scoped.accessToken } })
  assert.equal(cats.status, 403)

  const accounts = await client.fetchAccounts(created.id)
  assert.equal(accounts.total, 3)
  const cards = await client.fetchAccounts(created.id, 'CREDIT')
  assert.deepEqual(cards.results.map((a) => a.subtype), ['CREDIT_CARD'])
  const checking = accounts.results.find((a) => a.subtype === 'CHECKING_ACCOUNT')
  const one = await client.fetchAccount(checking.id)
  assert.equal(one.id, checking.id)
  assert.equal(typeof one.balance, 'number')
  assert.ok(one.bankData.transferNumber)

  // Cursor reads: every row of a multi-page account exactly once, in order.
  const perf = await client.createItem(0, { user: 'user-ok-perf-3', password: 'password-ok' })
  await settle(perf.id)
  const perfAccounts = await client.fetchAccounts(perf.id, 'BANK')
  const perfChecking = perfAccounts.results.find((a) => a.subtype === 'CHECKING_ACCOUNT')
  const firstPage = await client.fetchTransactionsCursor(perfChecking.id)
  assert.equal(firstPage.results.length, 500)
  assert.ok(firstPage.next)
  const every = await client.fetchAllTransactions(perfChecking.id)
  assert.ok(every.length > 1000, `only ${every.length} rows`)
  assert.equal(new Set(every.map((t) => t.id)).size, every.length, 'a row was read twice')
  for (let i = 1; i < every.length; i++) {
    assert.ok(every[i].date >= every[i - 1].date, 'rows out of order')
  }
  assert.ok(every[0].date instanceof Date)
  const recent = await client.fetchAllTransactions(perfChecking.id, { dateFrom: every[every.length - 1].date.toISOString().slice(0, 10) })
  assert.ok(recent.length > 0 && recent.length < every.length)

  const legacy = await client.fetchTransactions(perfChecking.id, { pageSize: 100, page: 2 })
  assert.equal(legacy.total, every.length)
  assert.equal(legacy.page, 2)
  assert.equal(legacy.results[0].id, every[100].id)

  const single = await client.fetchTransaction(every[0].id)
  assert.equal(single.id, every[0].id)
  const recategorized = await client.updateTransactionCategory(every[0].id, '17010000')
  assert.equal(recategorized.categoryId, '17010000')

  // Other products of the item.
  const investments = await client.fetchInvestments(created.id)
  assert.ok(investments.total >= 4)
  const fixed = await client.fetchInvestments(created.id, 'FIXED_INCOME')
  assert.ok(fixed.results.every((i) => i.type === 'FIXED_INCOME') && fixed.total > 0)
  const inv = await client.fetchInvestment(investments.results[0].id)
  assert.equal(inv.id, investments.results[0].id)
  const invTx = await client.fetchInvestmentTransactions(inv.id)
  assert.ok(invTx.total > 0)
  const allInvTx = await client.fetchAllInvestmentTransactions(inv.id)
  assert.equal(allInvTx.length, invTx.total)
  const identity = await client.fetchIdentityByItemId(created.id)
  assert.ok(identity.fullName && identity.taxNumber)
  assert.ok(identity.birthDate instanceof Date)
  const sameIdentity = await client.fetchIdentity(identity.id)
  assert.equal(sameIdentity.id, identity.id)
  const loans = await client.fetchLoans(created.id)
  assert.equal(loans.total, 1)
  assert.equal((await client.fetchLoan(loans.results[0].id)).id, loans.results[0].id)
  const card = accounts.results.find((a) => a.subtype === 'CREDIT_CARD')
  const bills = await client.fetchCreditCardBills(card.id)
  assert.ok(bills.total >= 10)
  const bill = await client.fetchCreditCardBill(bills.results[0].id)
  assert.equal(bill.id, bills.results[0].id)
  const statements = await client.fetchAccountStatements(checking.id)
  assert.ok(statements.total >= 12)
  const consents = await client.fetchConsents(created.id)
  assert.equal(consents.total, 0, 'a direct connector has no Open Finance consent')
  // An Open Finance item: the payer approves at the institution, and the item has a consent.
  const ofItem = await client.createItem(5, { cpf: '52998224725' })
  item = await settle(ofItem.id)
  assert.equal(item.status, 'WAITING_USER_ACTION')
  await fetch(item.userAction.attributes.url, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ decision: 'approve' }) })
  item = await settle(ofItem.id)
  assert.equal(item.status, 'UPDATED')
  const ofConsents = await client.fetchConsents(ofItem.id)
  assert.equal(ofConsents.total, 1)
  assert.equal((await client.fetchConsent(ofConsents.results[0].id)).itemId, ofItem.id)

  await client.deleteItem(created.id)
  const gone = await rejection(client.fetchItem(created.id))
  assert.equal(gone.codeDescription, 'ITEM_NOT_FOUND')

  // Webhooks: create, list, read, update (PATCH), delete; the resource shape of the client's type.
  const hook = await client.createWebhook('item/updated', 'https://hooks.example.com/pluggy', { 'X-Secret': 'abc' })
  assert.ok(hook.id && hook.url === 'https://hooks.example.com/pluggy' && hook.event === 'item/updated')
  assert.ok(hook.createdAt instanceof Date && hook.updatedAt instanceof Date && hook.disabledAt === null)
  const hooks = await client.fetchWebhooks()
  assert.equal(hooks.total, 1)
  assert.equal(hooks.results[0].id, hook.id)
  const sameHook = await client.fetchWebhook(hook.id)
  assert.equal(sameHook.event, 'item/updated')
  const updatedHook = await client.updateWebhook(hook.id, { event: 'all', enabled: false })
  assert.equal(updatedHook.event, 'all')
  assert.ok(updatedHook.disabledAt instanceof Date)
  const badHook = await rejection(client.createWebhook('item/all', 'https://hooks.example.com/pluggy'))
  assert.equal(badHook.codeDescription, 'INVALID_WEBHOOK_EVENT')
  await client.deleteWebhook(hook.id)
  const goneHook = await rejection(client.fetchWebhook(hook.id))
  assert.equal(goneHook.codeDescription, 'WEBHOOK_NOT_FOUND')

  // Payments: institutions, recipients, customers, requests, intents, schedules.
  const pay = client.payments
  const institutions = await pay.fetchPaymentInstitutions({ name: 'Nubank' })
  assert.equal(institutions.total, 1)
  const nubank = institutions.results[0]
  assert.equal(nubank.ispb, '18236120')
  assert.equal(nubank.compe, '260')
  assert.ok(nubank.createdAt instanceof Date)
  assert.equal((await pay.fetchPaymentInstitution(nubank.id)).tradeName, nubank.tradeName)
  const allInstitutions = await pay.fetchPaymentInstitutions({ pageSize: 500 })
  assert.ok(allInstitutions.total >= 50, `${allInstitutions.total} institutions`)

  const recipient = await pay.createPaymentRecipient({
    name: 'Loja Exemplo Ltda', taxNumber: '11222333000181', paymentInstitutionId: nubank.id, isDefault: true,
    account: { branch: '0001', number: '1234567-8', type: 'CHECKING_ACCOUNT' },
  })
  assert.ok(recipient.id && recipient.isDefault && recipient.paymentInstitution.id === nubank.id)
  assert.equal(recipient.account.type, 'CHECKING_ACCOUNT')
  const byKey = await pay.createPaymentRecipient({ pixKey: 'fulano@example.com' })
  assert.equal(byKey.pixKey, 'fulano@example.com')
  const renamed = await pay.updatePaymentRecipient(byKey.id, { name: 'Fulano de Tal', taxNumber: '11144477735' })
  assert.equal(renamed.name, 'Fulano de Tal')
  assert.equal((await pay.fetchPaymentRecipients()).total, 2)
  assert.equal((await pay.fetchPaymentRecipient(recipient.id)).name, 'Loja Exemplo Ltda')
  await pay.deletePaymentRecipient(byKey.id)
  assert.equal((await rejection(pay.fetchPaymentRecipient(byKey.id))).codeDescription, 'PAYMENT_RECIPIENT_NOT_FOUND')

  const customer = await pay.createPaymentCustomer({ type: 'INDIVIDUAL', name: 'Maria Silva', email: 'maria@example.com', cpf: '111.444.777-35', cnpj: '' })
  assert.equal(customer.cpf, '11144477735')
  assert.equal((await pay.updatePaymentCustomer(customer.id, { name: 'Maria S. Silva' })).name, 'Maria S. Silva')
  assert.equal((await pay.fetchPaymentCustomer(customer.id)).email, 'maria@example.com')
  assert.equal((await pay.fetchPaymentCustomers()).total, 1)
  const badCustomer = await rejection(pay.createPaymentCustomer({ type: 'INDIVIDUAL', name: 'X', email: 'x@example.com', cpf: '11144477736', cnpj: '' }))
  assert.equal(badCustomer.codeDescription, 'INVALID_CPF')

  const request = await pay.createPaymentRequest({
    amount: 100.5, description: 'Pedido 1', recipientId: recipient.id, customerId: customer.id, clientPaymentId: 'order-1', isSandbox: true,
    callbackUrls: { success: 'https://shop.example/ok', error: 'https://shop.example/fail' },
  })
  assert.equal(request.status, 'CREATED')
  assert.equal(request.fees, 0)
  assert.ok(request.paymentUrl.startsWith(process.env.PLUGGY_API_URL))
  assert.ok(request.createdAt instanceof Date)
  assert.equal((await pay.fetchPaymentRequest(request.id)).customer.id, customer.id)
  assert.equal((await pay.fetchPaymentRequests({ from: '2020-01-01' })).total, 1)

  const intent = await pay.createPaymentIntent({ paymentRequestId: request.id, connectorId: 5, parameters: { cpf: '11144477735' } })
  assert.equal(intent.status, 'CONSENT_AWAITING_AUTHORIZATION')
  assert.equal(intent.paymentRequest.id, request.id)
  assert.equal(intent.connector.id, 5)
  // The payer authorizes on the consent page, by a form post as a browser sends it.
  const decided = await fetch(intent.consentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ decision: 'authorize' }) })
  assert.equal(decided.status, 303)
  assert.ok(decided.headers.get('location').startsWith('https://shop.example/ok?paymentIntentId='))
  let paid
  for (let i = 0; i < 200; i++) {
    paid = await pay.fetchPaymentIntent(intent.id)
    if (paid.status === 'PAYMENT_COMPLETED') break
    await new Promise((r) => setTimeout(r, 50))
  }
  assert.equal(paid.status, 'PAYMENT_COMPLETED')
  assert.ok(paid.updatedAt instanceof Date)
  assert.equal((await pay.fetchPaymentIntents()).total, 1)
  assert.equal((await pay.fetchPaymentRequest(request.id)).status, 'COMPLETED')
  const again = await rejection(pay.createPaymentIntent({ paymentRequestId: request.id, connectorId: 5, parameters: { cpf: '11144477735' } }))
  assert.equal(again.codeDescription, 'PAYMENT_REQUEST_NOT_AVAILABLE')

  const tomorrow = new Date(Date.now() + 2 * 86400000).toISOString().slice(0, 10)
  const scheduled = await pay.createPaymentRequest({
    amount: 10, recipientId: recipient.id, isSandbox: true, schedule: { type: 'WEEKLY', startDate: tomorrow, occurrences: 2, dayOfWeek: 'THURDSAY' },
  })
  assert.equal(scheduled.schedule.dayOfWeek, 'THURSDAY')
  const scheduledIntent = await pay.createPaymentIntent({ paymentRequestId: scheduled.id, connectorId: 5, parameters: { cpf: '11144477735' } })
  await fetch(scheduledIntent.consentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ decision: 'authorize' }) })
  const schedules = await pay.fetchScheduledPayments(scheduled.id)
  assert.equal(schedules.total, 2)
  assert.equal(schedules.results[0].status, 'SCHEDULED')
  assert.equal((await pay.fetchScheduledPayment(scheduled.id, schedules.results[0].id)).id, schedules.results[0].id)
  await pay.cancelScheduledPayment(scheduled.id, schedules.results[0].id)
  await pay.cancelScheduledPayments(scheduled.id)
  assert.ok((await pay.fetchScheduledPayments(scheduled.id)).results.every((s) => s.status === 'CANCELED'))
  assert.equal((await pay.fetchPaymentRequest(scheduled.id)).status, 'CANCELED')

  // Automatic PIX: the terms, the payer's consent (name required), charges, cancellation.
  const auto = await pay.createPaymentRequestPixAutomatico({
    description: 'Academia', recipientId: recipient.id, interval: 'MONTHLY', startDate: tomorrow, fixedAmount: 50, isSandbox: true,
  })
  assert.equal(auto.amount, undefined)
  assert.equal(auto.automaticPix.interval, 'MONTHLY')
  const noName = await rejection(pay.createPaymentIntent({ paymentRequestId: auto.id, connectorId: 5, parameters: { cpf: '11144477735' } }))
  assert.equal(noName.codeDescription, 'INVALID_PARAMETER')
  const autoIntent = await pay.createPaymentIntent({ paymentRequestId: auto.id, connectorId: 5, parameters: { cpf: '11144477735', name: 'Maria Silva' } })
  await fetch(autoIntent.consentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ decision: 'authorize' }) })
  assert.equal((await pay.fetchPaymentRequest(auto.id)).status, 'AUTHORIZED')
  const charge = await pay.scheduleAutomaticPixPayment(auto.id, { amount: 50, date: tomorrow, description: 'Mensalidade' })
  assert.equal(charge.status, 'SCHEDULED')
  const charges = await pay.fetchAutomaticPixPayments(auto.id, {})
  assert.equal(charges.total, 1)
  assert.equal((await pay.fetchAutomaticPixPayment(auto.id, charge.id)).amount, 50)
  await pay.cancelAutomaticPixPayment(auto.id, charge.id)
  // A retry is for a failed payment of an authorization that accepts retries: this one
  // accepts none, and the refusal comes back as the client's error.
  const noRetry = await rejection(pay.retryAutomaticPixPayment(auto.id, charge.id, { date: tomorrow }))
  assert.equal(noRetry.codeDescription, 'AUTOMATIC_PIX_RETRY_NOT_ACCEPTED', JSON.stringify(noRetry))
  assert.equal((await pay.fetchAutomaticPixPayment(auto.id, charge.id)).status, 'CANCELED')
  await pay.cancelAutomaticPixAuthorization(auto.id)
  assert.equal((await pay.fetchPaymentRequest(auto.id)).status, 'CANCELED')

  const doomed = await pay.createPaymentRequest({ amount: 5, isSandbox: true })
  assert.equal(doomed.recipient.id, recipient.id, 'the default recipient')
  await pay.deletePaymentRequest(doomed.id)
  assert.equal((await rejection(pay.fetchPaymentRequest(doomed.id))).codeDescription, 'PAYMENT_REQUEST_NOT_FOUND')
  await pay.deletePaymentCustomer(customer.id)

  // Smart accounts: opened, read, listed, and paid into by a request.
  const smart = await pay.createSmartAccount({ name: 'Loja Exemplo', taxNumber: '11222333000181', email: 'loja@example.com', phoneNumber: '+5511999990000', isSandbox: true })
  assert.equal(smart.type, 'CHECKING_ACCOUNT')
  assert.equal((await pay.fetchSmartAccount(smart.id)).number, smart.number)
  assert.equal((await pay.fetchSmartAccounts()).total, 1)
  assert.equal((await pay.fetchSmartAccountBalance(smart.id)).balance, 0)
  const intoSmart = await pay.createPaymentRequest({ amount: 7.5, isSandbox: true, smartAccountId: smart.id })
  const smartIntent = await pay.createPaymentIntent({ paymentRequestId: intoSmart.id, connectorId: 5, parameters: { cpf: '11144477735' } })
  await fetch(smartIntent.consentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ decision: 'authorize' }) })
  for (let i = 0; i < 200 && (await pay.fetchSmartAccountBalance(smart.id)).balance !== 7.5; i++) {
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.equal((await pay.fetchSmartAccountBalance(smart.id)).balance, 7.5, 'the payment reached the smart account')


  // Smart transfers: a pre-authorization its payer approves on the consent page, then a
  // payment under it that settles with no payer.
  const preauth = await pay.createSmartTransferPreauthorization({ connectorId: 6, parameters: { cpf: '11144477735' },
    recipientIds: [recipient.id], callbackUrls: { success: 'https://app.example.com/ok' } })
  assert.equal(preauth.status, 'CREATED')
  assert.equal(preauth.recipients[0].id, recipient.id)
  assert.equal(preauth.connector.id, 6)
  const approval = await fetch(preauth.consentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ decision: 'authorize' }) })
  assert.equal(approval.headers.get('location'), `https://app.example.com/ok?preauthorizationId=${preauth.id}`)
  assert.equal((await pay.fetchSmartTransferPreauthorization(preauth.id)).status, 'COMPLETED')
  assert.equal((await pay.fetchSmartTransferPreauthorizations()).total, 1)
  const transfer = await pay.createSmartTransferPayment({ preauthorizationId: preauth.id, recipientId: recipient.id, amount: 12.34,
    description: 'Mensalidade', clientPaymentId: 'st-1' })
  assert.equal(transfer.status, 'PAYMENT_PENDING')
  assert.equal(transfer.preauthorizationId, preauth.id)
  await until('the smart transfer settles', async () => (await pay.fetchSmartTransferPayment(transfer.id)).status === 'PAYMENT_COMPLETED')

  // Bulk payments: the smart account (7.50) pays two requests (5.00) in one authorization;
  // another bulk payment is deleted before its authorization.
  const b1 = await pay.createPaymentRequest({ amount: 3, isSandbox: true })
  const b2 = await pay.createPaymentRequest({ amount: 2, isSandbox: true })
  const bulk = await pay.createBulkPayment({ smartAccountId: smart.id, paymentRequestIds: [b1.id, b2.id] })
  assert.equal(bulk.status, 'CREATED')
  assert.equal(bulk.totalAmount, 5)
  assert.deepEqual(bulk.paymentRequests.map((p) => p.id), [b1.id, b2.id])
  const spare = await pay.createBulkPayment({ smartAccountId: smart.id, paymentRequestIds: [(await pay.createPaymentRequest({ amount: 1, isSandbox: true })).id] })
  assert.equal((await pay.fetchBulkPayments()).total, 2)
  await pay.deleteBulkPayment(spare.id)
  assert.equal((await rejection(pay.fetchBulkPayment(spare.id))).codeDescription, 'BULK_PAYMENT_NOT_FOUND')
  await fetch(bulk.paymentUrl, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ decision: 'authorize' }) })
  await until('the bulk payment completes', async () => (await pay.fetchBulkPayment(bulk.id)).status === 'COMPLETED')
  assert.equal((await pay.fetchPaymentRequest(b1.id)).status, 'COMPLETED')
  assert.equal((await pay.fetchSmartAccountBalance(smart.id)).balance, 2.5)

  const untried = clientCalls.filter((m) => !called.has(m))
  assert.deepEqual(untried, [], `client methods this script never called (of ${clientCalls.length})`)
  assert.equal(clientCalls.length, 79, 'pluggy-sdk@0.90.0 has 79 calls')
  console.log(`pluggy-sdk compatibility: all ${clientCalls.length} client calls made, all checks passed`)
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err)
  process.exit(1)
})
