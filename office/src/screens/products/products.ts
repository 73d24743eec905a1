/** Products and stock (issue 54): /products the list, /products/new, /products/import, /products/<id>. */
import type { Product } from '@duka/shared';
import { html } from '../../ui/html.js';
import { follow, href, navigate } from '../../ui/router.js';
import { ProductDetail } from './detail.js';
import { ProductForm } from './form.js';
import { ImportProducts } from './import.js';
import { ProductList } from './list.js';
import { t } from './messages.js';

function NewProduct() {
  return html`<section class="product">
    <p><a href=${href('products')} onClick=${(e: MouseEvent) => follow(e, 'products')}>← ${t('back')}</a></p>
    <h1>${t('new')}</h1>
    <${ProductForm} onSaved=${(p: Product) => navigate(`products/${p.id}`)} />
  </section>`;
}

export function Screen({ rest }: { rest: string[] }) {
  const [first] = rest;
  if (!first) return html`<${ProductList} />`;
  if (first === 'new') return html`<${NewProduct} />`;
  if (first === 'import') return html`<${ImportProducts} />`;
  return html`<${ProductDetail} key=${first} id=${first} />`;
}
