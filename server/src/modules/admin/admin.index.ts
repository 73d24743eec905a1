import { createRouter, type Router } from '../../lib/create-router.js';
import { authedCtx, ok } from '../../lib/route.js';
import * as catalogue from './admin-catalogue.routes.js';
import * as monitoring from './admin-monitoring.routes.js';
import * as orgs from './admin-organisations.routes.js';
import * as pharmacy from './admin-pharmacy.routes.js';
import * as records from './admin-records.routes.js';
import * as routes from './admin.routes.js';
import * as business from './services/admin-business.js';
import * as cat from './services/admin-catalogue.js';
import { analyticsOverview, listActivity, monitoringOverview } from './services/admin-monitoring.js';
import { getOrganisationDetail, listOrganisations, updateOrganisationByAdmin } from './services/admin-organisations.js';
import * as platform from './services/admin-platform-records.js';
import { adminTransactionsSummary, getAdminTransaction, listAdminTransactions } from './services/admin-sales.js';
import * as people from './services/admin-users-stores.js';
import { monitoringHealth, platformDashboard } from './services/platform-stats.js';
import * as addo from '../pharmacy/pharmacy.exports.js';
import { listAdminSubscriptions } from '../billing/billing.exports.js';

type Paged = { items: unknown[]; meta: unknown };
const page = (c: Parameters<typeof ok>[0], p: Paged) => ok(c, p.items, { meta: p.meta });

const organisationsRouter: Router = createRouter()
  .openapi(orgs.listOrganisations, async (c) => page(c, await listOrganisations(authedCtx(c), c.req.valid('query'))))
  .openapi(orgs.getOrganisation, async (c) => ok(c, await getOrganisationDetail(authedCtx(c), c.req.valid('param').id)))
  .openapi(orgs.organisationStores, async (c) =>
    page(c, await people.listOrganisationStores(authedCtx(c), c.req.valid('param').id, c.req.valid('query'))),
  )
  .openapi(orgs.organisationUsers, async (c) =>
    page(c, await people.listOrganisationUsers(authedCtx(c), c.req.valid('param').id, c.req.valid('query'))),
  )
  .openapi(orgs.updateOrganisation, async (c) =>
    ok(c, await updateOrganisationByAdmin(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'organisation updated' }),
  )
  .openapi(orgs.listUsers, async (c) => page(c, await people.listAdminUsers(authedCtx(c), c.req.valid('query'))))
  .openapi(orgs.updateUser, async (c) =>
    ok(c, await people.updateUserByAdmin(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'user updated' }),
  )
  .openapi(orgs.listStores, async (c) => page(c, await people.listAdminStores(authedCtx(c), c.req.valid('query'))))
  .openapi(orgs.updateStore, async (c) =>
    ok(c, await people.updateStoreByAdmin(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'store updated' }),
  )
  .openapi(orgs.listSubscriptions, async (c) => page(c, await listAdminSubscriptions(authedCtx(c), c.req.valid('query'))))
  .openapi(orgs.aiUsage, async (c) => page(c, await platform.listAiUsage(authedCtx(c), c.req.valid('query'))));

const catalogueRouter: Router = createRouter()
  .openapi(catalogue.listProducts, async (c) => page(c, await cat.listAdminProducts(authedCtx(c), c.req.valid('query'))))
  .openapi(catalogue.getProduct, async (c) => ok(c, await cat.getAdminProduct(authedCtx(c), c.req.valid('param').id)))
  .openapi(catalogue.updateProduct, async (c) =>
    ok(c, await cat.updateProductByAdmin(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'product updated' }),
  )
  .openapi(catalogue.listCategories, async (c) => page(c, await cat.listAdminCategories(authedCtx(c), c.req.valid('query'))))
  .openapi(catalogue.createCategory, async (c) =>
    ok(c, await cat.createCategoryByAdmin(authedCtx(c), c.req.valid('json')), { message: 'category created', status: 201 }),
  )
  .openapi(catalogue.updateCategory, async (c) =>
    ok(c, await cat.updateCategoryByAdmin(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'category updated' }),
  )
  .openapi(catalogue.deleteCategory, async (c) => {
    await cat.deleteCategoryByAdmin(authedCtx(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(catalogue.transactionsSummary, async (c) => ok(c, await adminTransactionsSummary(authedCtx(c), c.req.valid('query'))))
  .openapi(catalogue.listTransactions, async (c) => page(c, await listAdminTransactions(authedCtx(c), c.req.valid('query'))))
  .openapi(catalogue.getTransaction, async (c) => ok(c, await getAdminTransaction(authedCtx(c), c.req.valid('param').id)));

const recordsRouter: Router = createRouter()
  .openapi(records.listCustomers, async (c) => page(c, await business.listAdminCustomers(authedCtx(c), c.req.valid('query'))))
  .openapi(records.listCredits, async (c) => page(c, await business.listAdminCredits(authedCtx(c), c.req.valid('query'))))
  .openapi(records.listSuppliers, async (c) => page(c, await business.listAdminSuppliers(authedCtx(c), c.req.valid('query'))))
  .openapi(records.supplierDeliveries, async (c) =>
    page(c, await business.listAdminSupplierDeliveries(authedCtx(c), c.req.valid('param').id, c.req.valid('query'))),
  )
  .openapi(records.supplierPayments, async (c) =>
    page(c, await business.listAdminSupplierPayments(authedCtx(c), c.req.valid('param').id, c.req.valid('query'))),
  )
  .openapi(records.listExpenses, async (c) => page(c, await business.listAdminExpenses(authedCtx(c), c.req.valid('query'))))
  .openapi(records.listReviews, async (c) => page(c, await platform.listAdminReviews(authedCtx(c), c.req.valid('query'))))
  .openapi(records.updateReview, async (c) =>
    ok(c, await platform.updateReviewByAdmin(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), { message: 'review updated' }),
  )
  .openapi(records.deleteReview, async (c) => {
    await platform.deleteReviewByAdmin(authedCtx(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(records.listNotes, async (c) => page(c, await platform.listAdminNotes(authedCtx(c), c.req.valid('query'))))
  .openapi(records.listNotifications, async (c) => page(c, await platform.listAdminNotifications(authedCtx(c), c.req.valid('query'))));

const pharmacyRouter: Router = createRouter()
  .openapi(pharmacy.listAddoList, async (c) => page(c, await addo.listAddoMedicinesForAdmin(authedCtx(c), c.req.valid('query'))))
  .openapi(pharmacy.addoListHistory, async (c) => page(c, await addo.listAddoHistory(authedCtx(c), c.req.valid('query'))))
  .openapi(pharmacy.addAddoMedicine, async (c) =>
    ok(c, await addo.addAddoMedicine(authedCtx(c), c.req.valid('json')), { message: 'medicine added to the ADDO list', status: 201 }),
  )
  .openapi(pharmacy.correctAddoMedicine, async (c) =>
    ok(c, await addo.correctAddoMedicine(authedCtx(c), c.req.valid('param').id, c.req.valid('json')), {
      message: 'ADDO list entry corrected',
    }),
  )
  .openapi(pharmacy.removeAddoMedicine, async (c) => {
    await addo.removeAddoMedicine(authedCtx(c), c.req.valid('param').id);
    return c.body(null, 204);
  });

export const adminRouter = (ping: () => Promise<void>): Router =>
  createRouter()
    .openapi(routes.dashboard, async (c) => ok(c, await platformDashboard(authedCtx(c))))
    .openapi(routes.monitoringHealth, async (c) => ok(c, await monitoringHealth(authedCtx(c), ping)))
    .openapi(monitoring.monitoringOverview, async (c) => ok(c, await monitoringOverview(authedCtx(c))))
    .openapi(monitoring.monitoringActivity, async (c) => page(c, await listActivity(authedCtx(c), c.req.valid('query'))))
    .openapi(monitoring.analyticsOverview, async (c) => ok(c, await analyticsOverview(authedCtx(c), c.req.valid('query'))))
    .route('/', organisationsRouter)
    .route('/', catalogueRouter)
    .route('/', recordsRouter)
    .route('/', pharmacyRouter);
