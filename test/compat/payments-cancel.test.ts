import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject } from '../helpers/api.ts';
import { projectUser } from '../helpers/project-user.ts';
import { configure, PAYMENTS_CONFIG } from '../helpers/payments.ts';

// Upstream https://github.com/stack-auth/stack-auth/blob/2f719903b181c20940159e9f3aaaa99bc3ec3b0f/apps/e2e/tests/backend/endpoints/api/v1/payments/products.test.ts
// "should reject canceling a one-time purchase product" (inline snapshot) and the DELETE handler of
// payments/products/[customer_type]/[customer_id]/[product_id]: its plain 400 texts.

describeWithServer('payments cancel answers as upstream', (get) => {
  it("answers upstream's plain 400s for a one-time product, a product not owned and an unknown subscription id", async () => {
    const server = get();
    const p = await createProject(server);
    await configure(server, p.admin, PAYMENTS_CONFIG);
    const user = await projectUser(server, p);
    assert.equal((await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'pack' })).status, 200);
    const del = (path: string) => api(server, 'DELETE', `/payments/products/user/${user.id}/${path}`, user.client);

    const oneTime = await del('pack');
    assert.equal(oneTime.status, 400);
    assert.equal(oneTime.text, 'This product is a one time purchase and cannot be canceled.');
    const notOwned = await del('pro');
    assert.equal(notOwned.status, 400);
    assert.equal(notOwned.text, 'Customer does not have this product.');
    const unknownSub = await del('_inline?subscription_id=00000000-0000-4000-8000-000000000000');
    assert.equal(unknownSub.status, 400);
    assert.equal(unknownSub.text, 'No active subscription found with this ID for the given customer.');
    assertKnownError(await del('no-such-product'), 'PRODUCT_DOES_NOT_EXIST', 400);

    assert.equal((await api(server, 'POST', `/payments/products/user/${user.id}`, p.server, { product_id: 'pro' })).status, 200);
    const ok = await del('pro');
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body, { success: true });
  });
});
