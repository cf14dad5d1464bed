import { PiniaColada } from '@pinia/colada'
import { createPinia } from 'pinia'
import { createApp } from 'vue'
import 'element-plus/theme-chalk/dark/css-vars.css'
// Services called from script (ElMessage, ElMessageBox) are not seen by the template resolver.
import 'element-plus/es/components/message/style/css'
import 'element-plus/es/components/message-box/style/css'
import './styles/app.css'
import App from './App.vue'
import { DATA_OPTIONS } from './data/options'
import { createAppRouter, syncWindowTitle } from './router'
import { prefetchScreens } from './screens'
import { useAppStore } from './stores/app'

const app = createApp(App)
const pinia = createPinia()
app.use(pinia)
// First: it reads this window's account pin (?account=<id>) before any account-bound store exists.
useAppStore(pinia)
app.use(PiniaColada, DATA_OPTIONS)
const router = createAppRouter()
app.use(router)
syncWindowTitle(router)
app.mount('#app')
// Once the first screen is there, the list and detail screens' code loads while the user looks.
void router.isReady().then(() => prefetchScreens())
