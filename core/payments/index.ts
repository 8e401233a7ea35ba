export { getItem } from './get-item.ts';
export { updateItemQuantity } from './update-item-quantity.ts';
