export { imageUrlSchema, storeDataImages, releaseReplacedImages, loadImage, IMAGE_PATH_PREFIX, MAX_IMAGE_BYTES } from './images.ts';
