// What the scripts share: the official client of the application the Go test made for
// them (PLUGGY_API_URL, PONTE_CLIENT_ID, PONTE_CLIENT_SECRET), and the wait for an item's
// execution to end.
'use strict'
const assert = require('node:assert/strict')
const { PluggyClient } = require('pluggy-sdk')

function newClient() {
  return new PluggyClient({ clientId: process.env.PONTE_CLIENT_ID, clientSecret: process.env.PONTE_CLIENT_SECRET })
}

// settle polls the item until it is neither UPDATING nor MERGING, and gives it then.
async function settle(client, id) {
  for (let i = 0; i < 600; i++) {
    const item = await client.fetchItem(id)
    if (!['UPDATING', 'MERGING'].includes(item.status)) return item
    await new Promise((r) => setTimeout(r, 50))
  }
  assert.fail(`item ${id} never settled`)
}

module.exports = { newClient, settle }
