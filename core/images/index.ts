export { imageUrlSchema, isImageUrlValue, storeDataImages, releaseReplacedImages, loadImage, parseImageDataUrl, IMAGE_PATH_PREFIX, MAX_IMAGE_BYTES } from './images.ts';
