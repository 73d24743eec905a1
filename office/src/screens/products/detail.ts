/** One product's page: its form (to edit, when the user may) and its stock. */
import type { Product } from '@duka/shared';
import { may } from '../../access.js';
import { t as core } from '../../i18n/core.js';
import { ErrorBanner } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { useRead } from '../../ui/record.js';
import { follow, href } from '../../ui/router.js';
import { ProductForm } from './form.js';
import { t } from './messages.js';
import { StockPanel } from './stock.js';

export function ProductDetail({ id }: { id: string }) {
  const { data: product, error, setData: setProduct } = useRead<Product>(`/inventory/products/${id}`);

  return html`<section class="product">
    <p><a href=${href('products')} onClick=${(e: MouseEvent) => follow(e, 'products')}>← ${t('back')}</a></p>
    <${ErrorBanner} error=${error} />
    ${
      !product
        ? error
          ? null
          : html`<p>${core('loading')}</p>`
        : html`<h1 data-testid="product-title">${product.name}</h1>
      <div class="panels">
        ${
          may('PATCH /inventory/products/{id}')
            ? html`<section class="panel"><h2>${t('edit.title')}</h2><${ProductForm} product=${product} onSaved=${setProduct} /></section>`
            : null
        }
        <${StockPanel} product=${product} onChanged=${setProduct} />
      </div>`
    }
  </section>`;
}
