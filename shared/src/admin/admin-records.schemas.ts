/**
 * Platform administration across organisations: catalogue, sales, business records and platform
 * records. Each item is the owner routes' shape plus `org_id` and `organisation_name`.
 */
import { z } from 'zod';
import { ActiveFilter, DateString, Money, QueryBool } from '../common.js';
import { CreditTab, CreditTabStatus } from '../credits/credits.schemas.js';
import { Customer } from '../customers/customers.schemas.js';
import { Expense, ExpenseCategory } from '../expenses/expenses.schemas.js';
import { Category, CreateCategoryInput, Product, UpdateProductInput } from '../inventory/inventory.schemas.js';
import { Note } from '../notebook/notebook.schemas.js';
import { Notification, NotificationCategory } from '../notifications/notifications.schemas.js';
import { PaymentMethod } from '../payment-methods.js';
import { Transaction, TransactionStatus } from '../pos/pos.schemas.js';
import { StoreReview } from '../reviews/reviews.schemas.js';
import { Delivery, SupplierPayment, Supplier, SupplierStatus } from '../suppliers/suppliers.schemas.js';
import { AdminOrgQuery } from './admin-platform.schemas.js';

const Search = z.string().trim().min(1).max(100).optional();
const Owned = { org_id: z.uuid(), organisation_name: z.string() };
const StoreFilter = z.uuid().optional().meta({ description: 'Only this store' });
const DateRange = {
  date_from: DateString.optional().meta({
    description: 'Local date (the organisation’s time zone with `org_id`, else Africa/Dar_es_Salaam), included',
  }),
  date_to: DateString.optional().meta({ description: 'Local date, included' }),
};

export const AdminProduct = Product.extend({
  ...Owned,
  stock: z.number().meta({ description: 'Total over all the organisation’s stores, in the product’s unit (whole for a piece product)' }),
}).meta({ id: 'AdminProduct' });
export type AdminProduct = z.infer<typeof AdminProduct>;

export const AdminProductDetail = AdminProduct.extend({
  category_name: z.string().nullable(),
  stock_by_store: z
    .array(z.object({ store_id: z.uuid(), store_name: z.string(), qty: z.number() }))
    .meta({ description: 'Every store of the organisation, in the product’s unit' }),
  sold_qty: z.number().meta({ description: 'Quantity on paid and credit sales, all time, in the product’s unit (0.5 for half a kg)' }),
  price_changes: z.int().meta({ description: 'Rows of price history' }),
}).meta({ id: 'AdminProductDetail' });
export type AdminProductDetail = z.infer<typeof AdminProductDetail>;

export const ListAdminProductsQuery = AdminOrgQuery.extend({
  search: Search.meta({ description: 'Name, SKU or barcode contains, any case' }),
  category_id: z.uuid().optional(),
  status: ActiveFilter.optional(),
});
export type ListAdminProductsQuery = z.infer<typeof ListAdminProductsQuery>;

export const UpdateAdminProductInput = UpdateProductInput.omit({ stock: true })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'send at least one field')
  .meta({
    id: 'UpdateAdminProductInput',
    description: 'The owner PATCH fields and rules, without `stock` (stock moves stay with the shop)',
  });
export type UpdateAdminProductInput = z.infer<typeof UpdateAdminProductInput>;

export const AdminCategory = Category.extend(Owned).meta({ id: 'AdminCategory' });
export type AdminCategory = z.infer<typeof AdminCategory>;

export const ListAdminCategoriesQuery = AdminOrgQuery.extend({ search: Search.meta({ description: 'Name contains, any case' }) });
export type ListAdminCategoriesQuery = z.infer<typeof ListAdminCategoriesQuery>;

export const CreateAdminCategoryInput = CreateCategoryInput.extend({
  org_id: z.uuid().meta({ description: 'The organisation the category is added to' }),
}).meta({
  id: 'CreateAdminCategoryInput',
});
export type CreateAdminCategoryInput = z.infer<typeof CreateAdminCategoryInput>;

export const AdminTransaction = Transaction.extend({ ...Owned, store_name: z.string() }).meta({ id: 'AdminTransaction' });
export type AdminTransaction = z.infer<typeof AdminTransaction>;

export const ListAdminTransactionsQuery = AdminOrgQuery.extend({
  store_id: StoreFilter,
  status: TransactionStatus.optional(),
  method: PaymentMethod.optional(),
  search: Search.meta({ description: 'receipt_number, client_receipt_number or payment_reference contains' }),
  ...DateRange,
});
export type ListAdminTransactionsQuery = z.infer<typeof ListAdminTransactionsQuery>;

export const AdminTransactionsSummaryQuery = z.object({ org_id: z.uuid().optional(), store_id: StoreFilter, ...DateRange });
export type AdminTransactionsSummaryQuery = z.infer<typeof AdminTransactionsSummaryQuery>;

export const AdminTransactionsSummary = z
  .object({
    date_from: DateString.nullable().meta({ description: 'null: all time' }),
    date_to: DateString.nullable(),
    total_sales: Money.meta({ description: 'Paid and credit' }),
    transaction_count: z.int(),
    average_ticket: Money,
    refund_count: z.int(),
    refund_total: Money,
    void_count: z.int(),
    by_method: z
      .array(z.object({ method: PaymentMethod, total: Money, count: z.int() }))
      .meta({ description: 'Sold money by payment method, every method' }),
    organisations: z.int().meta({ description: 'Organisations with at least one sale' }),
    stores: z.int().meta({ description: 'Stores with at least one sale' }),
  })
  .meta({ id: 'AdminTransactionsSummary' });
export type AdminTransactionsSummary = z.infer<typeof AdminTransactionsSummary>;

export const AdminCustomer = Customer.extend(Owned).meta({ id: 'AdminCustomer' });
export type AdminCustomer = z.infer<typeof AdminCustomer>;

export const ListAdminCustomersQuery = AdminOrgQuery.extend({
  search: Search.meta({ description: 'Name, email or phone contains, any case' }),
  status: ActiveFilter.optional(),
  has_credit: QueryBool.optional().meta({ description: 'true: owes something now' }),
});
export type ListAdminCustomersQuery = z.infer<typeof ListAdminCustomersQuery>;

export const AdminCreditTab = CreditTab.extend(Owned).meta({ id: 'AdminCreditTab' });
export type AdminCreditTab = z.infer<typeof AdminCreditTab>;

export const ListAdminCreditsQuery = AdminOrgQuery.extend({
  store_id: StoreFilter,
  status: CreditTabStatus.optional(),
  overdue: QueryBool.optional().meta({ description: 'Owes and due before today (the organisation’s today)' }),
});
export type ListAdminCreditsQuery = z.infer<typeof ListAdminCreditsQuery>;

export const AdminSupplier = Supplier.extend({ ...Owned, delivery_count: z.int(), payment_count: z.int() }).meta({ id: 'AdminSupplier' });
export type AdminSupplier = z.infer<typeof AdminSupplier>;

export const ListAdminSuppliersQuery = AdminOrgQuery.extend({
  search: Search.meta({ description: 'Name, rep, phone or email contains, any case' }),
  status: SupplierStatus.optional(),
});
export type ListAdminSuppliersQuery = z.infer<typeof ListAdminSuppliersQuery>;

export const AdminDelivery = Delivery.extend(Owned).meta({ id: 'AdminDelivery' });
export const AdminSupplierPayment = SupplierPayment.extend(Owned).meta({ id: 'AdminSupplierPayment' });

export const ListAdminDeliveriesQuery = AdminOrgQuery.omit({ org_id: true }).extend({
  unpaid: QueryBool.optional().meta({ description: 'true: still owed; false: nothing owed' }),
});
export type ListAdminDeliveriesQuery = z.infer<typeof ListAdminDeliveriesQuery>;
export const ListAdminSupplierPaymentsQuery = AdminOrgQuery.omit({ org_id: true });
export type ListAdminSupplierPaymentsQuery = z.infer<typeof ListAdminSupplierPaymentsQuery>;

export const AdminExpense = Expense.extend(Owned).meta({ id: 'AdminExpense' });
export type AdminExpense = z.infer<typeof AdminExpense>;

export const ListAdminExpensesQuery = AdminOrgQuery.extend({
  store_id: StoreFilter,
  category: ExpenseCategory.optional(),
  search: Search.meta({ description: 'Title contains, any case' }),
  ...DateRange,
});
export type ListAdminExpensesQuery = z.infer<typeof ListAdminExpensesQuery>;

export const AdminReview = StoreReview.extend({
  ...Owned,
  user_id: z.uuid().nullable(),
  is_published: z.boolean().meta({ description: 'false: hidden from GET /reviews/public' }),
}).meta({ id: 'AdminReview' });
export type AdminReview = z.infer<typeof AdminReview>;

export const ListAdminReviewsQuery = AdminOrgQuery.extend({
  published: QueryBool.optional(),
  rating: z.coerce.number().int().min(1).max(5).optional(),
});
export type ListAdminReviewsQuery = z.infer<typeof ListAdminReviewsQuery>;

export const UpdateAdminReviewInput = z.object({ is_published: z.boolean() }).meta({ id: 'UpdateAdminReviewInput' });
export type UpdateAdminReviewInput = z.infer<typeof UpdateAdminReviewInput>;

export const AdminNote = Note.extend({ ...Owned, store_id: z.uuid() }).meta({ id: 'AdminNote' });
export type AdminNote = z.infer<typeof AdminNote>;

export const ListAdminNotesQuery = AdminOrgQuery.extend({
  store_id: StoreFilter,
  search: Search.meta({ description: 'Title contains, any case' }),
});
export type ListAdminNotesQuery = z.infer<typeof ListAdminNotesQuery>;

export const AdminNotification = Notification.extend(Owned).meta({ id: 'AdminNotification' });
export type AdminNotification = z.infer<typeof AdminNotification>;

export const ListAdminNotificationsQuery = AdminOrgQuery.extend({
  store_id: StoreFilter,
  category: NotificationCategory.optional(),
  unread: QueryBool.optional(),
});
export type ListAdminNotificationsQuery = z.infer<typeof ListAdminNotificationsQuery>;
