// The money feature's public entry: what other features may use of it (decision 0920).
export { useAddToCart, useProducts } from './api';
